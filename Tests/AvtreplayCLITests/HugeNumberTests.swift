import Foundation
import XCTest

/// An integer past 2^53 − 1 is refused, with its place, by every command and input format (as
/// `report` refuses it in records); a player log's `nan` or `inf` is warned about and read as missing.
final class HugeNumberTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws { dir = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func write(_ name: String, _ text: String) throws {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func testEveryCommandRefusesAHugeIntegerWithItsPlace() throws {
        let huge = "9223372036854775807"
        try write(
            "set.json",
            """
            {"trackers": [{"name": "c"}], "steps": [
              {"t": 0, "tracker": "c", "action": "StreamLoad"},
              {"t": 10, "tracker": "c", "set": {"bitrate": \(huge)}, "action": "Start"}
            ]}
            """)
        try write(
            "observe.json",
            """
            {"trackers": [{"name": "c", "kind": "avplayer"}], "steps": [
              {"t": 0, "tracker": "c", "observe": {"source": "https://e.x/m.m3u8", "presentationSize": {"width": 9007199254740992, "height": 2}}}
            ]}
            """)
        try write(
            "set.jsonl",
            """
            {"trackers": [{"name": "c"}]}
            {"t": 0, "tracker": "c", "action": "StreamLoad", "set": {"bitrate": \(huge)}}

            """)
        try write(
            "set.csv",
            "#avtreplay {\"trackers\": [{\"name\": \"c\"}]}\nt,tracker,action,set.bitrate\n0,c,StreamLoad,\(huge)\n")
        let places = [
            "set.json": "set.json:3:48: steps[1].set.bitrate: \(huge) is out of range",
            "observe.json":
                "observe.json:2:102: steps[0].observe.presentationSize.width: expected an integer of at most 2^53 − 1",
            "set.jsonl": "set.jsonl:2:",
            "set.csv": "set.csv:3:",
        ]
        for (file, place) in places {
            for command in [["run"], ["kpi"], ["report", "-o", "r.html"], ["check"], ["convert"]] {
                var arguments = [command[0], file] + command.dropFirst()
                if command == ["convert"] { arguments.append("out.json") }
                if command == ["check"] { arguments += ["--expect", "none.jsonl"] }
                let result = try CLI.run(arguments, in: dir)
                XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout)\(result.stderr)")
                let text = result.stdout + result.stderr
                XCTAssertTrue(text.contains(place) && text.contains("2^53 − 1"), "\(arguments): \(text)")
            }
        }
        let largest = try CLI.run(["run", "set.csv"], in: dir, replacing: huge, with: "9007199254740991")
        XCTAssertEqual(largest.status, 0, largest.stderr)
    }

    func testAccessLogNotANumberIsWarnedAndReadAsMissing() throws {
        let log = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/player-logs/avplayer-accesslog.log"),
            encoding: .utf8)
        // The first event's observed bitrate, then its byte count.
        var lines = log.components(separatedBy: "\n")
        let row = try XCTUnwrap(lines.firstIndex { !$0.hasPrefix("#") && !$0.isEmpty })
        lines[row] = lines[row].replacingOccurrences(of: " 11250000 6000000.000 ", with: " 99999999999999999999 nan ")
        try write("access.log", lines.joined(separator: "\n"))
        let result = try CLI.run(["run", "access.log", "--input-format", "avplayer-accesslog"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("access.log:\(row + 1): c-observed-bitrate \"nan\" is no usable number"),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("bytes \"99999999999999999999\" is no usable number"), result.stderr)
        XCTAssertFalse(result.stdout.contains("nan"))
    }

    private func fixture(_ name: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/player-logs/\(name)"), encoding: .utf8)
    }

    /// An EventLogger value past 2^53 − 1 (a bitrate, a dropped-frame count) is warned about with
    /// its line and skipped; the rest of the line and of the log is read.
    func testExoPlayerHugeIntegersAreWarnedAndSkipped() throws {
        let huge = "9223372036854775807"
        var lines = try fixture("exoplayer-media3-threadtime.log").components(separatedBy: "\n")
        let format = try XCTUnwrap(lines.firstIndex { $0.contains("downstreamFormat [") && $0.contains("video/avc") })
        let dropped = try XCTUnwrap(lines.firstIndex { $0.contains("droppedFrames [") })
        lines[format] = lines[format].replacingOccurrences(of: "bitrate=2000000", with: "bitrate=\(huge)")
        lines[dropped] = lines[dropped].replacingOccurrences(of: ", 12]", with: ", \(huge)]")
        try write("exo.log", lines.joined(separator: "\n"))
        let result = try CLI.run(["kpi", "exo.log", "--format", "json"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "exo.log:\(format + 1): bitrate \"\(huge)\" is no usable number (past 2^53 − 1), skipped"),
            result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "exo.log:\(dropped + 1): droppedFrames \"\(huge)\" is no usable number (past 2^53 − 1), skipped"),
            result.stderr)
        XCTAssertFalse(result.stdout.contains(huge))
        XCTAssertFalse(result.stdout.contains("131771869945779"), "no bitrate averaged from 2^63 − 1")
        // The resolution on the same line is still read.
        let run = try CLI.run(["run", "exo.log"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("\"resolutionHeight\":720"), "the line's res= is kept")
        XCTAssertFalse(run.stdout.contains(huge))
    }

    /// A Chrome media-internals number past 2^53 − 1 (as ms, for times) is warned about with its
    /// line and the entry skipped; the rest of the log is read.
    func testChromeHugeNumbersAreWarnedAndSkipped() throws {
        let log = try fixture("chrome-save-log.json")
            .replacingOccurrences(
                of: #""key": "duration", "value": 60}"#, with: #""key": "duration", "value": 9223372036854775807}"#
            )
            .replacingOccurrences(of: #""key": "width", "value": 1280}"#, with: #""key": "width", "value": 1e300}"#)
        try write("chrome.json", log)
        let lines = log.components(separatedBy: "\n")
        let duration = try XCTUnwrap(lines.firstIndex { $0.contains(#""key": "duration", "value": 922"#) }) + 1
        let width = try XCTUnwrap(lines.firstIndex { $0.contains(#""key": "width""#) }) + 1
        let result = try CLI.run(["kpi", "chrome.json"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "chrome.json: line \(duration): duration \"9223372036854775807\" is no usable number (past 2^53 − 1 ms), skipped"
            ), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("chrome.json: line \(width): width \"")
                && result.stderr.contains(
                    "is no usable number (past 2^53 − 1), skipped"),
            result.stderr)
        let run = try CLI.run(["run", "chrome.json"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("922337203685477"), "no duration from the huge value")
        XCTAssertTrue(run.stdout.contains("\"action\":\"Start\""), "the log is read on")
    }
}

extension CLI {
    /// Runs after replacing `text` in every file of `directory` (a timeline's one value).
    fileprivate static func run(_ arguments: [String], in directory: URL, replacing text: String, with new: String)
        throws -> CLIResult
    {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let url = directory.appendingPathComponent(name)
            guard let content = try? String(contentsOf: url, encoding: .utf8) else { continue }
            try content.replacingOccurrences(of: text, with: new).write(to: url, atomically: true, encoding: .utf8)
        }
        return try run(arguments, in: directory)
    }
}
