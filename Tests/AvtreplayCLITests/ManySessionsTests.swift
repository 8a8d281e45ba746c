import Foundation
import XCTest

/// `avtreplay run A B dir/ --jobs N --shard K/N`, end to end.
final class ManySessionsTests: XCTestCase {
    func testSeveralInputsCarryTheirSessionAndJobsKeepTheOrder() throws {
        let sequential = try CLI.run(["run", "fixtures/happy-path.json", "fixtures/preroll-ads.json"])
        XCTAssertEqual(sequential.status, 0, sequential.stderr)
        let lines = sequential.stdout.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix(#"{"type":"event","session":"fixtures/happy-path.json","t":0,"#) ?? false)
        XCTAssertTrue(lines.last?.contains(#""session":"fixtures/preroll-ads.json""#) ?? false)
        let parallel = try CLI.run(["run", "fixtures/happy-path.json", "fixtures/preroll-ads.json", "--jobs", "2"])
        XCTAssertEqual(parallel.stdout, sequential.stdout)
    }

    func testParallelSessionsWrittenToAFileAreTheSequentialOutput() throws {
        // Sessions of a parallel run wait in temporary files and are appended to the output by
        // the kernel (sendfile): into a pipe above, into a regular file here.
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("all.jsonl").path
        let parallel = try CLI.run(["run", "fixtures", "--jobs", "2", "-o", output])
        XCTAssertEqual(parallel.status, 0, parallel.stderr)
        let sequential = try CLI.run(["run", "fixtures"])
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), sequential.stdout)
        XCTAssertGreaterThan(sequential.stdout.count, 10_000)
    }

    func testADirectoryIsEveryTimelineInItAndShardsSplitIt() throws {
        let all = try CLI.run(["run", "fixtures"])
        XCTAssertEqual(all.status, 0, all.stderr)
        let sessions = Set(
            all.stdout.split(separator: "\n").compactMap { line in
                line.range(of: #""session":"[^"]*""#, options: .regularExpression).map { String(line[$0]) }
            })
        XCTAssertGreaterThanOrEqual(sessions.count, 6)
        let first = try CLI.run(["run", "fixtures", "--shard", "1/2"])
        let second = try CLI.run(["run", "fixtures", "--shard", "2/2", "--jobs", "2"])
        XCTAssertEqual(first.stdout.count + second.stdout.count, all.stdout.count, "the shards partition the corpus")
        XCTAssertNotEqual(first.stdout, second.stdout)
    }

    func testOneBadSessionFailsTheRunWithItsLocationAndNoOutputFile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.jsonl")
        try "{\"trackers\": [{\"name\": \"c\"}]}\n{\"t\": 0, \"tracker\": \"c\", \"action\": \"Start\"}\n{\"t\": -4}\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let output = dir.appendingPathComponent("out.jsonl").path
        let result = try CLI.run(["run", "fixtures/happy-path.json", bad.path, "-o", output, "--jobs", "2"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("\(bad.path):3:7: steps[1].t: expected milliseconds ≥ 0"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testJSONLFromStandardInputIsDetectedByContent() throws {
        let text = "{\"trackers\": [{\"name\": \"c\"}]}\n{\"t\": 0, \"tracker\": \"c\", \"action\": \"StreamLoad\"}\n"
        let result = try CLI.run(["run", "-", "--events-only"], stdin: text)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#""action":"StreamLoad""#))
        XCTAssertFalse(result.stdout.contains("session"))
    }
}

/// `run --format csv|table` and `--tracker` for CSV timelines.
final class RunFormatsTests: XCTestCase {
    func testCSVOutputIsOneTableAcrossSessions() throws {
        let result = try CLI.run(["run", "fixtures/happy-path.json", "fixtures/preroll-ads.json", "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix("type,session,t,time,action,tracker,name,metricType,value,attributes."))
        XCTAssertEqual(lines.filter { $0.hasPrefix("type,") }.count, 1, "one header for all sessions")
        let json = try CLI.run(["run", "fixtures/happy-path.json", "fixtures/preroll-ads.json"])
        XCTAssertEqual(lines.count - 1, json.stdout.split(separator: "\n").count, "one row per record")
    }

    func testTableIsPlainWithoutATerminal() throws {
        let result = try CLI.run(
            ["run", "fixtures/happy-path.json", "--format", "table"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("StartTime"))
        XCTAssertFalse(result.stdout.contains("\u{1B}["))
    }

    func testCSVTimelineWithTrackerFlagsReplaysLikeItsJSON() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("s.csv")
        try "t,tracker,action,set.position\n0,content,StreamLoad,\n500,content,Start,10\n".write(
            to: csv, atomically: true, encoding: .utf8)
        let json = dir.appendingPathComponent("s.json")
        try """
        {"trackers": [{"name": "content", "kind": "generic"}], "steps": [
          {"t": 0, "tracker": "content", "action": "StreamLoad"},
          {"t": 500, "tracker": "content", "set": {"position": 10}, "action": "Start"}]}
        """.write(to: json, atomically: true, encoding: .utf8)
        let fromCSV = try CLI.run(["run", csv.path, "--tracker", "content"])
        XCTAssertEqual(fromCSV.status, 0, fromCSV.stderr)
        XCTAssertEqual(fromCSV.stdout, try CLI.run(["run", json.path]).stdout)
        let undeclared = try CLI.run(["run", csv.path])
        XCTAssertEqual(undeclared.status, 2)
        XCTAssertTrue(undeclared.stderr.contains("--tracker"), undeclared.stderr)
        let badFlag = try CLI.run(["run", csv.path, "--tracker", "content=vlc"])
        XCTAssertEqual(badFlag.status, 2)
    }
}

/// `run --format influx|graphite` and their options.
final class WireFormatCommandTests: XCTestCase {
    func testInfluxAndGraphiteOutputs() throws {
        let influx = try CLI.run([
            "run", "fixtures/happy-path.json", "--format", "influx", "--influx-precision", "us", "--metrics-only",
        ])
        XCTAssertEqual(influx.status, 0, influx.stderr)
        XCTAssertTrue(influx.stdout.hasPrefix("OAVT_METRICS NumRequests=1i 1772366400000000\n"), influx.stdout)
        let compat = try CLI.run([
            "run", "fixtures/happy-path.json", "--format", "influx", "--influx-compat", "--events-only",
        ])
        XCTAssertTrue(compat.stdout.hasPrefix("OAVT_EVENTS action=\"TrackerInit\",accumBufferTime=0,"), compat.stdout)
        let renamed = try CLI.run([
            "run", "fixtures/happy-path.json", "--format", "influx", "--influx-measurements", "ev,me", "--influx-tags",
            "action",
        ])
        XCTAssertTrue(renamed.stdout.contains("\nme NumLoads=1i "), renamed.stdout)
        XCTAssertTrue(renamed.stdout.hasPrefix("ev,action=TrackerInit accumBufferTime=0i"), renamed.stdout)
        let graphite = try CLI.run([
            "run", "fixtures/happy-path.json", "--format", "graphite", "--graphite-prefix", "tv.app",
            "--graphite-events",
        ])
        XCTAssertTrue(
            graphite.stdout.hasPrefix("tv.app.events.TrackerInit 1 1772366400\ntv.app.NumRequests 1 1772366400\n"),
            graphite.stdout)
        XCTAssertEqual(
            try CLI.run(["run", "fixtures/happy-path.json", "--format", "influx", "--influx-measurements", "one"])
                .status, 2)
    }
}
