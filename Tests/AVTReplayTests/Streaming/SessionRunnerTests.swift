import AVTCore
import Foundation
import XCTest

@testable import AVTOutput
@testable import AVTReplay

/// Many sessions: discovery, sharding, parallel jobs with output in input order, failures.
final class SessionRunnerTests: XCTestCase {
    private func session(_ n: Int) -> String {
        """
        {"trackers": [{"name": "c\(n)"}], "steps": [
          {"t": 0, "tracker": "c\(n)", "action": "StreamLoad"},
          {"t": \(100 * n), "tracker": "c\(n)", "action": "Start"},
          {"t": \(40000 + n), "tracker": "c\(n)", "action": "End"}]}
        """
    }

    private func run(_ sessions: [String], jobs: Int, label: Bool = true) throws -> String {
        var configuration = SessionRunner.Configuration()
        configuration.jobs = jobs
        configuration.labelSessions = label
        let runner = SessionRunner(configuration) { sink, encoder, filter in
            JSONLinesBackend(sink: sink, encoder: encoder, filter: filter)
        }
        let sink = MemorySink()
        var reported: [String] = []
        try runner.run(sessions, to: sink) { reported.append($0.path) }
        XCTAssertEqual(reported, sessions, "reports come in input order")
        return sink.text
    }

    func testDirectoriesExpandToSortedTimelinesWithoutGoldenFiles() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("b/2.json", session(2))
        try scratch.write("a.jsonl", "{}")
        try scratch.write("b/1.csv", "")
        try scratch.write("b/1.expected.jsonl", "")
        try scratch.write("b/.hidden.json", "")
        try scratch.write("notes.txt", "")
        let root = scratch.url.path
        XCTAssertEqual(
            try SessionDiscovery.expand([root, "x.json"]),
            [root + "/a.jsonl", root + "/b/1.csv", root + "/b/2.json", "x.json"])
    }

    func testRecordsNameTheirSessionWhenTheInputsDoNot() {
        XCTAssertFalse(SessionDiscovery.labelsSessions(inputs: ["a.json"], sessions: ["a.json"]))
        XCTAssertTrue(SessionDiscovery.labelsSessions(inputs: ["a.json", "b.json"], sessions: ["a.json", "b.json"]))
        XCTAssertTrue(SessionDiscovery.labelsSessions(inputs: ["dir"], sessions: ["dir/a.json"]))
        // A directory of one timeline still labels: its name is not the input's.
        XCTAssertTrue(SessionDiscovery.labelsSessions(inputs: ["dir"], sessions: []))
    }

    /// Every name is in exactly one shard, the shards are about even, a name's shard does not
    /// depend on the other names (adding files moves none), and it is FNV-1a's: the same on
    /// every machine. A name is relative to the folder it was found in.
    func testShardsSplitByNameWithoutOverlapAndSurviveChange() {
        let names = (0..<400).map { "s\($0).json" }
        for n in [1, 2, 3, 7] {
            let shards = (1...n).map { k in names.filter { Shard("\(k)/\(n)")!.contains($0) } }
            XCTAssertEqual(shards.map(\.count).reduce(0, +), names.count, "each name once (\(n))")
            XCTAssertEqual(Set(shards.joined()).count, names.count)
            if n > 1 { XCTAssertGreaterThan(shards.map(\.count).min() ?? 0, names.count / n / 2, "even enough") }
        }
        // The shard is FNV-1a 64 of the name, modulo N, plus one: computed here from the
        // definition, so a change of hash (which would move every corpus's shards) fails.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in "a.json".utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        XCTAssertTrue(Shard("\(Int(hash % 5) + 1)/5")!.contains("a.json"))
        XCTAssertEqual(Shard.name(of: "corpus/sub/a.json", in: "corpus"), "sub/a.json")
        XCTAssertEqual(Shard.name(of: "corpus/sub/a.json", in: "corpus/"), "sub/a.json")
        XCTAssertEqual(Shard.name(of: "./a.json", in: nil), "a.json")
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", ""] { XCTAssertNil(Shard(bad), bad) }
    }

    func testEachSessionIsItsOwnInstrumentAndParallelOutputKeepsInputOrder() throws {
        let scratch = try ScratchDirectory()
        let paths = try (1...7).map { try scratch.write("s\($0).json", session($0)) }
        let sequential = try run(paths, jobs: 1)
        XCTAssertEqual(try run(paths, jobs: 2), sequential)
        XCTAssertEqual(try run(paths, jobs: 3), sequential)
        let lines = sequential.split(separator: "\n")
        // Every session starts afresh: its own StreamLoad is accepted and counts start at 1.
        XCTAssertEqual(lines.filter { $0.contains(#""action":"StreamLoad""#) }.count, 7)
        XCTAssertEqual(lines.filter { $0.contains(#""countStarts":1"#) && $0.contains(#""action":"Start""#) }.count, 7)
        XCTAssertTrue(lines.first?.contains(#""session":"\#(paths[0])""#) ?? false)
        XCTAssertTrue(lines.last?.contains(#""session":"\#(paths[6])""#) ?? false)
        XCTAssertFalse(try run(paths, jobs: 1, label: false).contains("session"))
    }

    func testAFailingSessionStopsTheRunAfterTheSessionsBeforeIt() throws {
        let scratch = try ScratchDirectory()
        let good = try scratch.write("1.json", session(1))
        let bad = try scratch.write("2.json", "{\"trackers\": [{\"name\": \"c\"}], \"steps\": [{\"t\": \"x\"}]}")
        let later = try scratch.write("3.json", session(3))
        for jobs in [1, 2] {
            var configuration = SessionRunner.Configuration()
            configuration.jobs = jobs
            configuration.labelSessions = true
            let runner = SessionRunner(configuration) { JSONLinesBackend(sink: $0, encoder: $1, filter: $2) }
            let sink = MemorySink()
            XCTAssertThrowsError(try runner.run([good, bad, later], to: sink) { _ in }) { error in
                XCTAssertTrue("\(error)".contains("2.json"), "\(error)")
            }
            XCTAssertTrue(sink.text.contains(good), "jobs \(jobs): the session before the failure is complete")
            XCTAssertFalse(sink.text.contains(later), "jobs \(jobs): nothing after the failure")
        }
    }
}
