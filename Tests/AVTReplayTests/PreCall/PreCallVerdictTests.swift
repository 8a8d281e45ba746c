import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTTrackers

/// Verdicts pinned at each threshold, with unknown losses, without windows, at the test's end and
/// under the OpenTok sample's profile.
final class PreCallVerdictTests: XCTestCase {
    /// Bytes over a 3 s window for a bandwidth: bps × 3 ÷ 8.
    /// 50 kbps → 18750 B; 150 kbps → 56250 B; 25 kbps → 9375 B.
    private static let video50k = 18_750
    private static let video150k = 56_250
    private static let audio25k = 9_375

    /// One window from t=0 to t=3000 with these deltas; the verdict at t=10000 uses it.
    private func verdict(
        video: (bytes: Int, received: Int, lost: Int), audio: (bytes: Int, received: Int, lost: Int),
        _ criteria: PreCallCriteria = PreCallCriteria()
    ) -> PreCallResult {
        PreCallTest.with(criteria, [(0, stats()), (3000, stats(video: video, audio: audio))]).result
    }

    private let goodAudio = (bytes: audio25k, received: 100, lost: 0)
    private let goodVideo = (bytes: video50k, received: 100, lost: 0)

    // MARK: Default profile, each threshold exactly and just past it

    func testVideoBandwidthExactlyAtFiftyKbpsPasses() {
        // 8 × 18750 B ÷ 3 s = 50000 bps = 50 kbps: ≥ passes.
        let at = verdict(video: (Self.video50k, 100, 0), audio: goodAudio)
        XCTAssertEqual(at.video.bandwidth, 50_000)
        XCTAssertTrue(at.video.bandwidthPasses)
        XCTAssertEqual(at.verdict, .audioVideo)
        // 8 × 18749 ÷ 3 = 49997.33 → 49997 bps < 50000: video fails, audio passes.
        let below = verdict(video: (Self.video50k - 1, 100, 0), audio: goodAudio)
        XCTAssertEqual(below.video.bandwidth, 49_997)
        XCTAssertFalse(below.video.passes)
        XCTAssertEqual(below.verdict, .audioOnly)
    }

    func testVideoLossExactlyAtThreePercentPasses() {
        // 3 ÷ (3 + 97) = 3 %: ≤ passes. Also 30 ÷ 1000 (the same ratio from other counts).
        XCTAssertEqual(verdict(video: (Self.video50k, 97, 3), audio: goodAudio).verdict, .audioVideo)
        XCTAssertEqual(verdict(video: (Self.video50k, 970, 30), audio: goodAudio).verdict, .audioVideo)
        // 31 ÷ 1000 = 3.1 % > 3 %.
        let over = verdict(video: (Self.video50k, 969, 31), audio: goodAudio)
        XCTAssertTrue(over.video.bandwidthPasses)
        XCTAssertFalse(over.video.lossPasses)
        XCTAssertEqual(over.verdict, .audioOnly)
    }

    func testAudioBandwidthExactlyAtTwentyFiveKbpsPasses() {
        // Video fails (0 bytes), so the verdict turns on audio: 8 × 9375 ÷ 3 = 25000 bps.
        let at = verdict(video: (0, 0, 0), audio: (Self.audio25k, 100, 0))
        XCTAssertEqual(at.audio.bandwidth, 25_000)
        XCTAssertEqual(at.verdict, .audioOnly)
        // 8 × 9374 ÷ 3 = 24997.33 → 24997 < 25000.
        XCTAssertEqual(verdict(video: (0, 0, 0), audio: (Self.audio25k - 1, 100, 0)).verdict, .neither)
    }

    func testAudioLossExactlyAtFivePercentPasses() {
        // 5 ÷ (5 + 95) = 5 %: passes; 6 ÷ 100 = 6 %: fails.
        XCTAssertEqual(verdict(video: (0, 0, 0), audio: (Self.audio25k, 95, 5)).verdict, .audioOnly)
        let over = verdict(video: (0, 0, 0), audio: (Self.audio25k, 94, 6))
        XCTAssertFalse(over.audio.lossPasses)
        XCTAssertEqual(over.verdict, .neither)
    }

    func testAudioVideoNeedsAudioTooUnderTheDefaultRule() {
        // Video passes, audio fails (24997 bps): the intended rule offers no call with broken audio.
        let result = verdict(video: goodVideo, audio: (Self.audio25k - 1, 100, 0))
        XCTAssertTrue(result.video.passes)
        XCTAssertEqual(result.verdict, .neither)
    }

    func testAWindowWithoutPacketsFailsTheLossCheckByDefault() {
        // 8 × 18750 ÷ 3 = 50000 bps but no packet counted: the loss is unknown, which fails.
        let result = verdict(video: (Self.video50k, 0, 0), audio: goodAudio)
        XCTAssertNil(result.video.loss)
        XCTAssertTrue(result.video.bandwidthPasses)
        XCTAssertFalse(result.video.lossPasses)
        XCTAssertEqual(result.verdict, .audioOnly)
    }

    func testNoWindowMeansNoBandwidth() {
        // Samples 2000 ms apart never close a 3000 ms window: bandwidth 0, loss unknown.
        let result = PreCallTest.with(PreCallCriteria(), [(0, stats()), (2000, stats(video: (100_000, 100, 0)))]).result
        XCTAssertEqual(result.windows, [])
        XCTAssertEqual(result.video.bandwidth, 0)
        XCTAssertNil(result.video.loss)
        XCTAssertEqual(result.verdict, .neither)
    }

    func testTheVerdictUsesTheLatestWindowClosedAtOrBeforeTheEnd() {
        // Windows close at 3000 (good), 6000 (good) and 10000 (bad video: 0 bytes), then 13000 (good).
        let samples: [(Int, NetStatsCounters)] = [
            (0, stats()),
            (3000, stats(video: (18_750, 100, 0), audio: (9375, 100, 0))),
            (6000, stats(video: (37_500, 200, 0), audio: (18_750, 200, 0))),
            (10_000, stats(video: (37_500, 200, 0), audio: (31_250, 300, 0))),
            (13_000, stats(video: (56_250, 300, 0), audio: (40_625, 400, 0))),
        ]
        let result = PreCallTest.with(PreCallCriteria(), samples).result
        // The window closing exactly at t = 10000 counts; the one at 13000 is after the test.
        XCTAssertEqual(result.windows.map(\.t), [3000, 6000, 10_000])
        XCTAssertEqual(result.video.bandwidth, 0)
        // Audio over 6000…10000: 8 × 12500 B ÷ 4 s = 25000 bps.
        XCTAssertEqual(result.audio.bandwidth, 25_000)
        XCTAssertEqual(result.verdict, .audioOnly)
        var longer = PreCallCriteria()
        longer.duration = 13_000
        XCTAssertEqual(PreCallTest.with(longer, samples).result.verdict, .audioVideo)
    }

    func testACounterResetDuringTheTestOnlyCountsWindowsAfterIt() {
        let samples: [(Int, NetStatsCounters)] = [
            (0, stats()),
            (3000, stats(video: (18_750, 100, 0), audio: (9375, 100, 0))),
            (4000, stats(video: (10, 1, 0), audio: (10, 1, 0))),  // reset: new baseline
            (7000, stats(video: (40, 2, 0), audio: (9385, 101, 0))),
        ]
        let result = PreCallTest.with(PreCallCriteria(), samples).result
        XCTAssertEqual(result.restarts, [4000])
        XCTAssertEqual(result.windows.map(\.t), [3000, 7000])
        // Window 4000…7000: video 8 × 30 ÷ 3 = 80 bps, audio 8 × 9375 ÷ 3 = 25000 bps.
        XCTAssertEqual(result.video.bandwidth, 80)
        XCTAssertEqual(result.audio.bandwidth, 25_000)
        XCTAssertEqual(result.verdict, .audioOnly)
    }

    // MARK: The OpenTok sample's profile

    func testOpenTokSampleNeedsOneHundredFiftyKbpsOfVideo() {
        let sample = PreCallCriteria(profile: .openTokSample)
        // 50 kbps passes the default rule but not the sample's 150000.
        XCTAssertEqual(verdict(video: goodVideo, audio: goodAudio, sample).verdict, .audioOnly)
        // 8 × 56250 ÷ 3 = 150000: passes; 8 × 56249 ÷ 3 = 149997.33 → 149997 fails.
        XCTAssertEqual(verdict(video: (Self.video150k, 100, 0), audio: goodAudio, sample).verdict, .audioVideo)
        XCTAssertEqual(verdict(video: (Self.video150k - 1, 100, 0), audio: goodAudio, sample).verdict, .audioOnly)
    }

    func testOpenTokSampleLetsUnknownLossPass() {
        // The only window is the first: its loss is unknown (−1 in the sample), and −1 ≤ 0.03.
        // 50 of 100 video packets lost does not matter.
        let result = verdict(
            video: (Self.video150k, 50, 50), audio: (0, 0, 0), PreCallCriteria(profile: .openTokSample))
        XCTAssertNil(result.video.loss)
        XCTAssertTrue(result.video.lossPasses)
        XCTAssertEqual(result.verdict, .audioVideo)
        // The default rule knows the loss (50 %) and fails video; audio has no bytes.
        XCTAssertEqual(verdict(video: (Self.video150k, 50, 50), audio: (0, 0, 0)).verdict, .neither)
    }

    func testOpenTokSampleIgnoresFailingAudioWhenVideoPasses() {
        let result = verdict(
            video: (Self.video150k, 100, 0), audio: (0, 0, 0), PreCallCriteria(profile: .openTokSample))
        XCTAssertFalse(result.audio.passes)
        XCTAssertEqual(result.verdict, .audioVideo)
    }

    func testOpenTokSampleRetestsAudioAloneForSixSeconds() {
        // Windows: 0…3000 (first), 3000…9000 both bad (no audio), 9000…12000 and 12000…15000 with
        // good audio (8 × 9375 ÷ 3 = 25000 bps, 0 lost of 100).
        let samples: [(Int, NetStatsCounters)] = [
            (0, stats()),
            (3000, stats(audio: (0, 100, 0))),
            (9000, stats(audio: (0, 100, 0))),
            (12_000, stats(audio: (9375, 200, 0))),
            (15_000, stats(audio: (18_750, 300, 0))),
            (16_000, stats(audio: (18_750, 300, 0))),
            (18_000, stats(audio: (18_750, 300, 0))),
        ]
        let result = PreCallTest.with(PreCallCriteria(profile: .openTokSample), samples).result
        XCTAssertFalse(result.video.passes)
        XCTAssertFalse(result.audio.passes, "at t=10000 the latest window (9000) has 0 audio bps")
        XCTAssertEqual(result.decidedAt, 16_000, "10 s test + 6 s audio-only retest")
        XCTAssertEqual(result.retest?.bandwidth, 25_000, "the window closed at 15000")
        XCTAssertEqual(result.verdict, .audioOnly)
        XCTAssertEqual(result.windows.map(\.t), [3000, 9000, 12_000, 15_000], "18000 closes after the decision")
        // Without the retest (the default rule) the same samples give neither.
        XCTAssertEqual(PreCallTest.with(PreCallCriteria(), samples).result.verdict, .neither)
        XCTAssertNil(PreCallTest.with(PreCallCriteria(), samples).result.retest)
    }

    func testOpenTokSampleRetestCanStillFail() {
        let samples: [(Int, NetStatsCounters)] = [
            (0, stats()), (3000, stats()), (6000, stats()), (16_000, stats(audio: (100, 10, 0))),
        ]
        let result = PreCallTest.with(PreCallCriteria(profile: .openTokSample), samples).result
        // The window closing exactly at 16000 is the retest's: 8 × 100 ÷ 10 = 80 bps < 25000.
        XCTAssertEqual(result.retest?.bandwidth, 80)
        XCTAssertEqual(result.verdict, .neither)
    }

    func testFlagsOverrideTheProfile() {
        var criteria = PreCallCriteria(profile: .openTokSample)
        criteria.videoKbps = 50
        XCTAssertEqual(verdict(video: goodVideo, audio: (0, 0, 0), criteria).verdict, .audioVideo)
        criteria.audioRetest = 0
        XCTAssertEqual(verdict(video: (0, 0, 0), audio: (0, 0, 0), criteria).decidedAt, 10_000)
    }

    func testVerdictOrder() {
        XCTAssertLessThan(PreCallVerdict.neither, .audioOnly)
        XCTAssertLessThan(PreCallVerdict.audioOnly, .audioVideo)
    }
}
