import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// `precall`'s flags on top of a profile, its requirement, and its warnings.
final class PreCallOptionsTests: XCTestCase {
    func testOverridesWinOverTheProfile() {
        var overrides = PreCallOverrides()
        XCTAssertEqual(overrides.criteria(.openTokSample), PreCallCriteria(profile: .openTokSample))
        overrides.videoKbps = 300
        overrides.audioRetest = 0
        let criteria = overrides.criteria(.openTokSample)
        XCTAssertEqual(criteria.videoKbps, 300)
        XCTAssertEqual(criteria.audioRetest, 0)
        XCTAssertEqual(criteria.windowLength, PreCallCriteria(profile: .openTokSample).windowLength)
    }

    func testOutOfRangeValuesAreUsageErrors() {
        func message(_ edit: (inout PreCallOverrides) -> Void) -> String? {
            var overrides = PreCallOverrides()
            edit(&overrides)
            do {
                try overrides.validate()
                return nil
            } catch {
                return error.message
            }
        }
        XCTAssertNil(message { _ in })
        XCTAssertEqual(message { $0.windowLength = 0 }, "--window must be at least 1 ms, got 0")
        XCTAssertEqual(message { $0.duration = -1 }, "--duration must be 0 ms or more, got -1")
        XCTAssertEqual(message { $0.audioRetest = -5 }, "--audio-retest must be 0 ms or more, got -5")
        XCTAssertEqual(message { $0.videoKbps = -1 }, "--video-kbps must be a number of kbps >= 0, got -1.0")
        XCTAssertEqual(
            message { $0.audioLossPercent = 101 }, "--audio-loss must be a percentage from 0 to 100, got 101.0")
    }

    func testTheRequirementFailsWorseVerdictsWithExitOne() {
        XCTAssertNil(PreCallRequirement.audio.failure(for: .audioOnly))
        XCTAssertNil(PreCallRequirement.audioVideo.failure(for: .audioVideo))
        XCTAssertEqual(
            PreCallRequirement.audioVideo.failure(for: .audioOnly),
            CommandFailure(message: "verdict audio-only is worse than the required audio-video", status: .differs))
        XCTAssertEqual(PreCallRequirement.audio.failure(for: .neither)?.status.code, 1)
    }

    func testARecordingThatEndsEarlyIsWarnedAbout() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "fixtures/precall-good.json"
            ).path
        var source = try TimelineReader.open(fixture)
        let full = try PreCallTest.run(&source, subscriber: nil, criteria: PreCallCriteria()).result
        XCTAssertEqual(full.warnings(input: "f"), [])
        var late = PreCallCriteria()
        late.duration = 1_000_000
        var again = try TimelineReader.open(fixture)
        let short = try PreCallTest.run(&again, subscriber: nil, criteria: late).result
        XCTAssertEqual(short.warnings(input: "f").count, 1)
        XCTAssertTrue(
            short.warnings(input: "f")[0].hasPrefix("f: the last sample is at t="), short.warnings(input: "f")[0])
    }
}
