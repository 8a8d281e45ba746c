import XCTest

@testable import AVTTimeline
@testable import AVTTrackers

/// `--tracker` values.
final class TrackerDeclarationTests: XCTestCase {
    func testNameKindAndOptions() throws {
        XCTAssertEqual(try TrackerDeclaration.parse("content"), TrackerSpec(name: "content", kind: .generic))
        XCTAssertEqual(try TrackerDeclaration.parse("content=avplayer"), TrackerSpec(name: "content", kind: .avplayer))
        XCTAssertEqual(
            try TrackerDeclaration.parse("ads=generic,ads"),
            TrackerSpec(name: "ads", kind: .generic, isAdsTracker: true))
        XCTAssertEqual(
            try TrackerDeclaration.parse("main=html5,no-init,no-ads"),
            TrackerSpec(name: "main", kind: .html5, isAdsTracker: false, emitTrackerInit: false))
    }

    func testBadValuesSayWhatWasExpected() {
        let cases = [
            (
                "c=vlc",
                "unknown tracker kind 'vlc' in --tracker 'c=vlc': expected one of "
                    + TrackerKind.allCases.map(\.rawValue).joined(separator: ", ")
            ),
            ("=ima", "--tracker '=ima' has no name: expected NAME[=KIND], e.g. content=avplayer"),
            ("c,live", "unknown option 'live' in --tracker 'c,live': expected ads, no-ads, init or no-init"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try TrackerDeclaration.parse(text)) {
                XCTAssertEqual($0 as? UsageError, UsageError(message))
            }
        }
    }

    func testNamesAreUnique() {
        XCTAssertNoThrow(try TrackerDeclaration.checkUnique([TrackerSpec(name: "a"), TrackerSpec(name: "b")]))
        XCTAssertThrowsError(try TrackerDeclaration.checkUnique([TrackerSpec(name: "a"), TrackerSpec(name: "a")])) {
            XCTAssertEqual(
                $0 as? UsageError, UsageError("--tracker 'a' is declared twice; tracker names must be unique."))
        }
    }
}
