import XCTest

@testable import AVTReplay
@testable import AVTTimeline

final class ReplayStartTimeTests: XCTestCase {
    func testISOEpochMillisecondsAndNow() throws {
        XCTAssertEqual(try ReplayStartTime.parse("2026-03-01T12:00:00Z"), 1_772_366_400_000)
        XCTAssertEqual(try ReplayStartTime.parse("1000"), 1000)
        XCTAssertEqual(try ReplayStartTime.parse("now", now: { 42 }), 42)
        let before = ReplayStartTime.now()
        XCTAssertGreaterThanOrEqual(try ReplayStartTime.parse("now"), before)
    }

    func testAnythingElseIsAUsageError() {
        XCTAssertThrowsError(try ReplayStartTime.parse("yesterday")) {
            XCTAssertEqual(
                $0 as? UsageError,
                UsageError(
                    "--start-time expects ISO-8601 (2026-03-01T12:00:00Z), epoch milliseconds or now; got 'yesterday'.")
            )
        }
    }
}
