import AVTCore
import AVTJSON
import XCTest

@testable import AVTTimeline
@testable import AVTTrackers

/// Every way a timeline can be wrong gives one error naming the file, the place and what was expected.
final class TimelineDecoderTests: XCTestCase {
    private func decode(_ text: String) throws(TimelineError) -> Timeline {
        try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
    }

    private func assertError(
        _ text: String, location: String?, path: String?, contains phrase: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        do {
            _ = try decode(text)
            XCTFail("decoded without error", file: file, line: line)
        } catch {
            XCTAssertEqual(error.file, "t.json", file: file, line: line)
            XCTAssertEqual(error.location?.description, location, file: file, line: line)
            XCTAssertEqual(error.path, path, file: file, line: line)
            XCTAssertTrue(error.message.contains(phrase), "message: \(error.message)", file: file, line: line)
        }
    }

    private let trackers = #""trackers": [{"name": "content"}, {"name": "ads", "isAdsTracker": true}]"#

    func testDecodesTheDocumentedExample() throws {
        let timeline = try decode(
            """
            {"startTime": "2026-03-01T12:00:00Z", "hub": "core", "metrics": false, "pingInterval": 10000, "until": 120000,
             "trackers": [{"name": "content"}, {"name": "ads", "isAdsTracker": true, "emitTrackerInit": true}],
             "steps": [
              {"t": 0, "tracker": "content", "action": "StreamLoad"},
              {"t": 0, "tracker": "content", "set": {"position": 1234, "duration": null}},
              {"t": 500, "tracker": "ads", "action": "Start", "attributes": {"foo": 1, "bar": null, "r": 0.5}}
             ]}
            """)
        XCTAssertEqual(timeline.settings.startTime, 1_772_366_400_000)
        XCTAssertEqual(timeline.settings.hub, .core)
        XCTAssertEqual(timeline.settings.metrics, false)
        XCTAssertEqual(timeline.settings.pingInterval, 10000)
        XCTAssertEqual(timeline.settings.until, 120_000)
        XCTAssertEqual(
            timeline.settings.trackers,
            [TrackerSpec(name: "content"), TrackerSpec(name: "ads", isAdsTracker: true, emitTrackerInit: true)])
        XCTAssertEqual(timeline.steps.count, 3)
        XCTAssertEqual(timeline.steps[0].action, .streamLoad)
        XCTAssertNil(timeline.steps[1].action)
        XCTAssertEqual(timeline.steps[1].set.map(\.attribute), ["position", "duration"])
        XCTAssertEqual(timeline.steps[1].set.map(\.value), [.int(1234), nil])
        XCTAssertEqual(timeline.steps[2].tracker, 1)
        // A null attribute is ignored; ints and doubles stay distinct.
        XCTAssertEqual(timeline.steps[2].attributes.map(\.attribute), ["foo", "r"])
        XCTAssertEqual(timeline.steps[2].attributes.map(\.value), [.int(1), .double(0.5)])
        XCTAssertEqual(timeline.steps[2].origin.index, 2)
    }

    func testDefaultsAndHubChoice() throws {
        let plain = try decode(#"{"trackers": [{"name": "c"}], "steps": []}"#)
        XCTAssertEqual(plain.settings.startTime, 0)
        XCTAssertEqual(plain.settings.pingInterval, 30000)
        XCTAssertTrue(plain.settings.metrics)
        XCTAssertNil(plain.settings.until)
        XCTAssertEqual(plain.settings.effectiveHub, .core)
        let ads = try decode("{\(trackers), \"steps\": []}")
        XCTAssertEqual(ads.settings.effectiveHub, .ads, "an ads tracker makes HubCoreAds the default")
        let epoch = try decode(#"{"startTime": 1700000000123, "trackers": [{"name": "c"}], "steps": []}"#)
        XCTAssertEqual(epoch.settings.startTime, 1_700_000_000_123)
    }

    func testCustomActionsAreNotErrors() throws {
        let timeline = try decode(
            #"{"trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "UserTap"}]}"#)
        XCTAssertEqual(timeline.steps[0].action?.timeAttribute, "timeSinceUserTap")
    }

    func testSyntaxErrorsPointAtTheByte() {
        assertError("{\"trackers\": [}", location: "1:15", path: nil, contains: "expected")
        assertError("", location: "1:1", path: nil, contains: "end of input")
    }

    func testStructureErrors() {
        assertError("[]", location: "1:1", path: "timeline", contains: "expected an object, found an array")
        assertError(#"{"steps": []}"#, location: "1:1", path: nil, contains: "missing \"trackers\"")
        assertError(#"{"trackers": [{"name": "c"}]}"#, location: "1:1", path: nil, contains: "missing \"steps\"")
        assertError(#"{"trackers": [], "steps": []}"#, location: "1:14", path: "trackers", contains: "non-empty array")
        assertError(
            #"{"trackers": [{"name": "c"}], "steps": [], "step": 1}"#, location: "1:52", path: "timeline",
            contains: "unknown key \"step\"")
        assertError(
            #"{"trackers": [{"name": "c"}, {"name": "c"}], "steps": []}"#, location: "1:39", path: "trackers[1].name",
            contains: "duplicate tracker name")
        assertError(
            #"{"trackers": [{"name": "c", "isAds": true}], "steps": []}"#, location: "1:38", path: "trackers[0]",
            contains: "unknown key \"isAds\"")
        assertError(
            #"{"hub": "fancy", "trackers": [{"name": "c"}], "steps": []}"#, location: "1:9", path: "hub",
            contains: "expected \"core\" or \"ads\"")
        assertError(
            #"{"pingInterval": -1, "trackers": [{"name": "c"}], "steps": []}"#, location: "1:18", path: "pingInterval",
            contains: "≥ 0")
        assertError(
            #"{"startTime": "yesterday", "trackers": [{"name": "c"}], "steps": []}"#, location: "1:15",
            path: "startTime", contains: "ISO-8601")
        assertError(
            #"{"metrics": "yes", "trackers": [{"name": "c"}], "steps": []}"#, location: "1:13", path: "metrics",
            contains: "expected true or false, found a string")
    }

    func testStepErrors() {
        func doc(_ steps: String) -> String { "{\"trackers\": [{\"name\": \"c\"}],\n\"steps\": [\n\(steps)]}" }
        assertError(
            doc(#"{"tracker": "c", "action": "Start"}"#), location: "3:1", path: "steps[0]", contains: "missing \"t\"")
        assertError(
            doc(#"{"t": "5", "tracker": "c", "action": "Start"}"#), location: "3:7", path: "steps[0].t",
            contains: "found a string")
        assertError(
            doc(#"{"t": 1.5, "tracker": "c", "action": "Start"}"#), location: "3:7", path: "steps[0].t",
            contains: "integer")
        assertError(
            doc(#"{"t": -1, "tracker": "c", "action": "Start"}"#), location: "3:7", path: "steps[0].t", contains: "≥ 0")
        assertError(
            doc(#"{"t": 1, "tracker": "x", "action": "Start"}"#), location: "3:21", path: "steps[0].tracker",
            contains: "unknown tracker \"x\": expected one of: c")
        assertError(
            doc(#"{"t": 1, "action": "Start"}"#), location: "3:1", path: "steps[0]", contains: "missing \"tracker\"")
        assertError(
            doc(
                "{\"t\": 5, \"tracker\": \"c\", \"action\": \"Start\"},\n{\"t\": 4, \"tracker\": \"c\", \"action\": \"End\"}"
            ),
            location: "4:7", path: "steps[1].t", contains: "earlier than the previous step's t 5")
        assertError(
            doc(#"{"t": 1, "tracker": "c"}"#), location: "3:1", path: "steps[0]",
            contains: "needs an \"action\", a \"set\" or an \"observe\"")
        assertError(
            doc(#"{"t": 1, "tracker": "c", "action": ""}"#), location: "3:36", path: "steps[0].action",
            contains: "action name")
        assertError(
            doc(#"{"t": 1, "tracker": "c", "action": 7}"#), location: "3:36", path: "steps[0].action",
            contains: "expected a string")
        assertError(
            doc(#"{"t": 1, "tracker": "c", "set": {"a": 1}, "attributes": {"b": 2}}"#), location: "3:57",
            path: "steps[0].attributes", contains: "needs an \"action\"")
        assertError(
            doc(#"{"t": 1, "tracker": "c", "set": {"a": [1]}}"#), location: "3:39", path: "steps[0].set.a",
            contains: "string, number, boolean or null")
        assertError(
            doc(#"{"t": 1, "tracker": "c", "set": 3}"#), location: "3:33", path: "steps[0].set",
            contains: "expected an object")
        assertError(
            doc(#"{"t": 1, "t": 2, "tracker": "c", "action": "Start"}"#), location: "3:15", path: "steps[0]",
            contains: "duplicate key \"t\"")
        assertError(
            doc(#"{"t": 1, "tracker": "c", "action": "Start", "when": 3}"#), location: "3:53", path: "steps[0]",
            contains: "unknown key \"when\"")
        assertError(doc("7"), location: "3:1", path: "steps[0]", contains: "expected an object, found an integer")
    }

    func testTimesBeyondTwoToTheFiftyThirdAreRejected() {
        assertError(
            #"{"trackers": [{"name": "c"}], "steps": [{"t": 9007199254740992, "tracker": "c", "action": "Start"}]}"#,
            location: "1:47", path: "steps[0].t", contains: "too large")
        assertError(
            #"{"startTime": -9223372036854775808, "trackers": [{"name": "c"}], "steps": []}"#, location: "1:15",
            path: "startTime", contains: "out of range")
    }

    func testErrorDescriptionFormat() {
        let error = TimelineError(
            file: "a.json", location: SourceLocation(line: 3, column: 7), path: "steps[1].t", message: "expected x")
        XCTAssertEqual(error.description, "a.json:3:7: steps[1].t: expected x")
        XCTAssertEqual(TimelineError(file: "a.json", message: "m").description, "a.json: m")
    }
}
