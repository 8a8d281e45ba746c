import AVTReplayKit
import Foundation
import XCTest

// Only public API (no @testable import), through the one import a library user writes.

/// A player of our own: `state` observations become OpenAVT actions, `cdn` an attribute.
final class KioskPlayerTracker: ScriptableTracker {
    override class var observationRules: [String: ObservationRule] {
        ["state": .oneOf(["loading", "playing", "stalled", "done"]), "cdn": .string]
    }

    override func observe(_ observation: Observation) {
        switch (observation.key, observation.value) {
        case ("cdn", .string(let cdn)): set(Attribute("cdn"), to: .string(cdn))
        case ("state", .string("loading")): emit(.streamLoad)
        case ("state", .string("playing")): emit(isBuffering ? .bufferFinish : .start)
        case ("state", .string("stalled")): emit(.bufferBegin)
        case ("state", .string("done")): emit(.end)
        default: break
        }
        if case .string(let state) = observation.value, observation.key == "state" { isBuffering = state == "stalled" }
    }

    private var isBuffering = false
}

/// AVPlayer's tracker with one attribute more, registered as a kind that keeps AVPlayer's rules.
final class CDNAVPlayerTracker: AVPlayerTracker {
    override func playerReady(_ instrument: Instrument) {
        super.playerReady(instrument)
        set(Attribute("cdn"), to: .string("edge-7"))
    }
}

/// A tracker kind of the user's own, registered once, is read from JSON, JSONL and CSV timelines
/// like a built-in one: its observations are checked against its rules with located errors, and
/// the replay makes its class.
final class CustomTrackerKindTests: XCTestCase {
    static let kiosk = try! TrackerKind.register("kiosk", tracker: KioskPlayerTracker.self)

    private var files: [String] = []

    override func tearDown() {
        for file in files { try? FileManager.default.removeItem(atPath: file) }
        super.tearDown()
    }

    private func file(_ text: String, _ ext: String) throws -> String {
        let path = NSTemporaryDirectory() + "kiosk-\(UUID().uuidString).\(ext)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        files.append(path)
        return path
    }

    private func actions(_ path: String) throws -> [String] {
        _ = Self.kiosk
        let sink = MemorySink()
        try Replayer.run(path, into: sink)
        let lines = String(decoding: sink.bytes, as: UTF8.self).split(separator: "\n")
        return lines.compactMap { line -> String? in
            guard let range = line.range(of: "\"action\":\"") else { return nil }
            let rest = line[range.upperBound...]
            return String(rest[..<rest.firstIndex(of: "\"")!]) + (line.contains("\"cdn\":\"edge-3\"") ? "@edge-3" : "")
        }
    }

    private static let steps = [
        (0, #"{"state": "loading", "cdn": "edge-3"}"#), (700, #"{"state": "playing"}"#),
        (4000, #"{"state": "stalled"}"#), (5200, #"{"state": "playing"}"#), (9000, #"{"state": "done"}"#),
    ]

    private var json: String {
        #"{"trackers": [{"name": "kiosk", "kind": "kiosk"}], "steps": ["#
            + Self.steps.map { #"{"t": \#($0.0), "tracker": "kiosk", "observe": \#($0.1)}"# }.joined(separator: ",")
            + "]}"
    }

    private var jsonl: String {
        #"{"trackers": [{"name": "kiosk", "kind": "kiosk"}]}"# + "\n"
            + Self.steps.map { #"{"t": \#($0.0), "tracker": "kiosk", "observe": \#($0.1)}"# }.joined(separator: "\n")
            + "\n"
    }

    private var csv: String {
        #"#avtreplay {"trackers": [{"name": "kiosk", "kind": "kiosk"}]}"# + "\nt,tracker,observe.state,observe.cdn\n"
            + "0,kiosk,loading,edge-3\n700,kiosk,playing,\n4000,kiosk,stalled,\n5200,kiosk,playing,\n9000,kiosk,done,\n"
    }

    func testTheKindIsReadFromJSONJSONLAndCSVAndReplaysAsItsClass() throws {
        let fromJSON = try actions(try file(json, "json"))
        XCTAssertEqual(
            fromJSON.filter { $0 != "TrackerInit" && $0 != "Ping" },
            ["StreamLoad", "Start@edge-3", "BufferBegin@edge-3", "BufferFinish@edge-3", "End@edge-3"])
        XCTAssertEqual(try actions(try file(jsonl, "jsonl")), fromJSON)
        XCTAssertEqual(try actions(try file(csv, "csv")), fromJSON)
    }

    func testObservationsOutsideTheRulesAreLocatedErrorsInEveryFormat() throws {
        _ = Self.kiosk
        let badJSON = json.replacingOccurrences(of: #""stalled""#, with: #""paused""#)
        XCTAssertThrowsError(try readAll(try file(badJSON, "json"))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(#"steps[2].observe.state: expected "loading" | "playing""#), text)
            XCTAssertTrue(text.contains(".json:1:"), text)
        }
        let badJSONL = jsonl.replacingOccurrences(of: #""cdn""#, with: #""codec""#)
        XCTAssertThrowsError(try readAll(try file(badJSONL, "jsonl"))) { error in
            let text = "\(error)"
            XCTAssertTrue(
                text.contains(#"unknown observation "codec" for a kiosk tracker: expected one of: cdn, state"#), text)
            XCTAssertTrue(text.contains(".jsonl:2:"), text)
        }
        let badCSV = csv.replacingOccurrences(of: "4000,kiosk,stalled", with: "4000,kiosk,paused")
        XCTAssertThrowsError(try readAll(try file(badCSV, "csv"))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(".csv:5:"), text)
            XCTAssertTrue(text.contains(#"expected "loading" | "playing""#), text)
        }
    }

    func testUnknownKindsListTheRegisteredOnes() throws {
        _ = Self.kiosk
        let unknown = json.replacingOccurrences(of: #""kind": "kiosk""#, with: #""kind": "kisok""#)
        XCTAssertThrowsError(try TimelineReader.open(try file(unknown, "json"))) { error in
            XCTAssertTrue("\(error)".contains(#"unknown tracker kind "kisok": expected one of: generic, "#), "\(error)")
            XCTAssertTrue("\(error)".contains("kiosk"), "\(error)")
        }
        XCTAssertEqual(try TrackerDeclaration.parse("k=kiosk").kind, Self.kiosk)
    }

    func testRegistrationIsOnceAndRefusesBuiltInAndTakenNames() throws {
        XCTAssertEqual(try TrackerKind.register("kiosk", tracker: KioskPlayerTracker.self), Self.kiosk)
        XCTAssertThrowsError(try TrackerKind.register("kiosk", tracker: CDNAVPlayerTracker.self))
        XCTAssertThrowsError(try TrackerKind.register("avplayer", tracker: KioskPlayerTracker.self))
        XCTAssertThrowsError(try TrackerKind.register("a=b", tracker: KioskPlayerTracker.self))
        XCTAssertEqual(TrackerKind(rawValue: "kiosk")?.trackerType == KioskPlayerTracker.self, true)
    }

    /// A built-in tracker extended by subclassing keeps its kind's rules, defaults and KPIs.
    func testAnExtendedBuiltInTrackerKeepsItsBaseKind() throws {
        let kind = try TrackerKind.register("cdn-avplayer", tracker: CDNAVPlayerTracker.self, base: .avplayer)
        XCTAssertEqual(kind.base, .avplayer)
        XCTAssertTrue(kind.emitsTrackerInitByDefault)
        XCTAssertEqual(Set(kind.observationRules.keys), Set(TrackerKind.avplayer.observationRules.keys))
        let timeline = """
            {"trackers": [{"name": "content", "kind": "cdn-avplayer"}], "steps": [
              {"t": 0, "tracker": "content", "observe": {"status": "readyToPlay", "currentTime": 0}},
              {"t": 1200, "tracker": "content", "observe": {"rate": 1, "timeControlStatus": "playing"}}]}
            """
        let path = try file(timeline, "json")
        let plain = try file(timeline.replacingOccurrences(of: "cdn-avplayer", with: "avplayer"), "json")
        let extended = try KPISessions.replay(path)
        let builtIn = try KPISessions.replay(plain)
        XCTAssertEqual(extended.playbackIds.count, 1)
        XCTAssertEqual(
            extended.playback(extended.playbackIds[0], definitions: .exoplayer),
            builtIn.playback(builtIn.playbackIds[0], definitions: .exoplayer))
        XCTAssertEqual(extended.playback(extended.playbackIds[0], definitions: .openavt)[.startupTime], .int(1200))
    }

    private func readAll(_ path: String) throws {
        var source = try TimelineReader.open(path)
        while try source.nextStep() != nil {}
    }
}
