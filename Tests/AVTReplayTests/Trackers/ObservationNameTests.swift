import AVTJSON
import XCTest

@testable import AVTTrackers

/// `Observation.name`: every key a player tracker accepts has its case (the KPIs' state history
/// tells a batch's keys apart by it), and other keys are `other`.
final class ObservationNameTests: XCTestCase {
    func testEveryPlayerTrackerKeyHasItsOwnCase() {
        for rules in [
            AVPlayerTracker.observationRules, ExoPlayerTracker.observationRules, HTML5Tracker.observationRules,
        ] {
            for key in rules.keys {
                let name = ObservationName(key)
                XCTAssertNotEqual(name, .other, key)
                XCTAssertEqual("\(name)", key)
            }
        }
    }

    func testOtherKeysAndChangedKeys() {
        XCTAssertEqual(ObservationName("bitrateX"), .other)
        XCTAssertEqual(ObservationName(""), .other)
        XCTAssertEqual(ObservationName("other"), .other)
        // The length and last byte of a key, not the key.
        XCTAssertEqual(ObservationName("xtop"), .other)
        XCTAssertEqual(ObservationName("Rate"), .other)
        XCTAssertEqual(ObservationName("playbackSuppressionReasoN"), .other)
        XCTAssertEqual(ObservationName("rat\u{E9}"), .other)
        XCTAssertEqual(ObservationName(String(repeating: "e", count: 40)), .other)
        var observation = Observation("rate", .int(1))
        XCTAssertEqual(observation.name, .rate)
        observation.key = "timeControlStatus"
        XCTAssertEqual(observation.name, .timeControlStatus)
    }
}
