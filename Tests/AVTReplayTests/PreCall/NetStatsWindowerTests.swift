import XCTest

@testable import AVTTrackers

/// Windows over cumulative counters: when they close, bandwidth and loss arithmetic, unknown
/// loss, counters that go backwards, and the OpenTok sample's arithmetic.
final class NetStatsWindowerTests: XCTestCase {
    func testAWindowClosesAtTheFirstSampleAtLeastTheLengthAfterTheLastOne() {
        var windower = NetStatsWindower(length: 3000)
        XCTAssertNil(windower.add(t: 0, counters: stats()), "the first sample is the baseline")
        XCTAssertNil(windower.add(t: 1000, counters: stats(video: (1000, 10, 0))))
        XCTAssertNil(windower.add(t: 2999, counters: stats(video: (2000, 20, 0))), "2999 ms < 3000 ms")
        let first = windower.add(t: 3000, counters: stats(video: (3000, 30, 0)))
        XCTAssertEqual(first?.t, 3000)
        XCTAssertEqual(first?.length, 3000, "3000 − 0: exactly the length closes")
        XCTAssertNil(windower.add(t: 5000, counters: stats(video: (4000, 40, 0))))
        // 6500 − 3000 = 3500 ms ≥ 3000: the next window starts at the sample that closed the last.
        let second = windower.add(t: 6500, counters: stats(video: (6500, 65, 0)))
        XCTAssertEqual(second?.t, 6500)
        XCTAssertEqual(second?.length, 3500)
        // 8 × (6500 − 3000) B ÷ 3.5 s = 28000 ÷ 3.5 = 8000 bps.
        XCTAssertEqual(second?.video.bandwidth, 8000)
    }

    func testBandwidthAndLossOfAWindow() throws {
        var windower = NetStatsWindower(length: 3000)
        _ = windower.add(t: 1000, counters: stats(video: (500, 10, 1), audio: (100, 5, 0)))
        let window = try XCTUnwrap(
            windower.add(t: 4000, counters: stats(video: (19_250, 107, 4), audio: (9_475, 105, 5))))
        // Video: 8 × (19250 − 500) B ÷ 3 s = 150000 ÷ 3 = 50000 bps; lost 4 − 1 = 3, received
        // 107 − 10 = 97: 3 ÷ (3 + 97) = 0.03.
        XCTAssertEqual(window.video.bandwidth, 50_000)
        XCTAssertEqual(window.video.loss, PacketLoss(lost: 3, total: 100))
        XCTAssertEqual(window.video.loss?.ratio, 0.03)
        // Audio: 8 × 9375 B ÷ 3 s = 25000 bps; lost 5, received 100: 5 ÷ 105.
        XCTAssertEqual(window.audio.bandwidth, 25_000)
        XCTAssertEqual(window.audio.loss, PacketLoss(lost: 5, total: 105))
    }

    func testBandwidthIsTruncatedToWholeBitsPerSecond() throws {
        var windower = NetStatsWindower(length: 3000)
        _ = windower.add(t: 0, counters: stats())
        // 8 × 18749 B ÷ 3 s = 49997.33… bps → 49997.
        let window = try XCTUnwrap(windower.add(t: 3000, counters: stats(video: (18_749, 1, 0))))
        XCTAssertEqual(window.video.bandwidth, 49_997)
        XCTAssertEqual(window.audio.bandwidth, 0)
    }

    func testAWindowWithoutPacketsHasUnknownLoss() throws {
        var windower = NetStatsWindower(length: 3000)
        _ = windower.add(t: 0, counters: stats(video: (0, 100, 2), audio: (0, 50, 0)))
        // Bytes arrived but no packet was received or lost in the window: loss unknown, not 0.
        let window = try XCTUnwrap(windower.add(t: 3000, counters: stats(video: (3000, 100, 2), audio: (0, 50, 0))))
        XCTAssertEqual(window.video.bandwidth, 8000, "8 × 3000 B ÷ 3 s")
        XCTAssertNil(window.video.loss)
        XCTAssertNil(window.audio.loss)
        // Only lost packets: 4 ÷ (4 + 0) = 1.
        let lossy = try XCTUnwrap(windower.add(t: 6000, counters: stats(video: (3000, 100, 6), audio: (0, 50, 0))))
        XCTAssertEqual(lossy.video.loss?.ratio, 1.0)
    }

    func testACounterGoingBackwardsRestartsTheWindowFromThatSample() throws {
        var windower = NetStatsWindower(length: 3000)
        _ = windower.add(t: 0, counters: stats(video: (1000, 10, 0)))
        XCTAssertNil(windower.add(t: 2000, counters: stats(video: (50_000, 60, 0))))
        // The subscriber was recreated: bytes 50000 → 400. The window 0…2500 is dropped; 2500 is
        // the new baseline, so 5000 (2500 ms later) closes nothing.
        XCTAssertNil(windower.add(t: 2500, counters: stats(video: (400, 4, 0))))
        XCTAssertNil(windower.add(t: 5000, counters: stats(video: (20_000, 30, 0))))
        let window = try XCTUnwrap(windower.add(t: 5500, counters: stats(video: (22_900, 54, 1))))
        XCTAssertEqual(window.length, 3000, "5500 − 2500")
        // 8 × (22900 − 400) B ÷ 3 s = 180000 ÷ 3 = 60000 bps; lost 1, received 50: 1 ÷ 51.
        XCTAssertEqual(window.video.bandwidth, 60_000)
        XCTAssertEqual(window.video.loss, PacketLoss(lost: 1, total: 51))
        XCTAssertEqual(windower.restarts, [2500])
    }

    func testACounterBelowThePreviousSampleRestartsEvenWhenAboveTheBaseline() throws {
        var windower = NetStatsWindower(length: 3000)
        _ = windower.add(t: 0, counters: stats(audio: (1000, 10, 0)))
        _ = windower.add(t: 1000, counters: stats(audio: (5000, 50, 3)))
        // Lost packets 3 → 1: still above the baseline's 0, but the counter went backwards.
        XCTAssertNil(windower.add(t: 3000, counters: stats(audio: (6000, 60, 1))))
        XCTAssertEqual(windower.restarts, [3000])
        let window = try XCTUnwrap(windower.add(t: 6000, counters: stats(audio: (9000, 90, 1))))
        // From the restart at 3000: 8 × 3000 B ÷ 3 s = 8000 bps; 0 lost of 30.
        XCTAssertEqual(window.audio.bandwidth, 8000)
        XCTAssertEqual(window.audio.loss, PacketLoss(lost: 0, total: 30))
    }

    func testOpenTokSampleArithmeticLeavesTheFirstWindowsLossUnknown() throws {
        var windower = NetStatsWindower(length: 3000, arithmetic: .openTokSample)
        _ = windower.add(t: 0, counters: stats(video: (0, 0, 0), audio: (0, 0, 0)))
        // The sample's packet baseline is first taken when a window closes: window 1 has no loss.
        let first = try XCTUnwrap(
            windower.add(t: 3000, counters: stats(video: (56_250, 100, 50), audio: (9375, 100, 0))))
        XCTAssertEqual(first.video.bandwidth, 150_000, "8 × 56250 ÷ (3000 ÷ 1000) = 150000")
        XCTAssertNil(first.video.loss)
        XCTAssertNil(first.audio.loss)
        let second = try XCTUnwrap(
            windower.add(t: 6001, counters: stats(video: (60_000, 197, 53), audio: (9375, 100, 0))))
        // 8 × 3750 ÷ 3.001 = 9996.67… → 9996; lost 3, received 97: 0.03.
        XCTAssertEqual(second.video.bandwidth, 9996)
        XCTAssertEqual(second.video.loss, PacketLoss(lost: 3, total: 100))
        XCTAssertNil(second.audio.loss, "no audio packets in the window")
    }

    func testOpenTokSampleLossIsUnknownWhenTheWindowStartsWithNothingReceived() throws {
        var windower = NetStatsWindower(length: 3000, arithmetic: .openTokSample)
        _ = windower.add(t: 0, counters: stats())
        _ = windower.add(t: 3000, counters: stats(video: (1000, 0, 5)))  // 0 received at the close
        let window = try XCTUnwrap(windower.add(t: 6000, counters: stats(video: (2000, 10, 5))))
        XCTAssertNil(window.video.loss, "the sample skips the loss while its previous received count is 0")
        let next = try XCTUnwrap(windower.add(t: 9000, counters: stats(video: (3000, 20, 5))))
        XCTAssertEqual(next.video.loss, PacketLoss(lost: 0, total: 10))
    }

    func testHugeCountersSaturateInsteadOfTrapping() {
        XCTAssertEqual(NetStatsWindower.exactBitsPerSecond(bytes: Int.max, ms: 1), Int.max)
        // 8000 × 2^60 overflows 64 bits, but the quotient ⌊8 × 2^60 ÷ 3⌋ = 3074457345618258602 fits.
        XCTAssertEqual(NetStatsWindower.exactBitsPerSecond(bytes: 1 << 60, ms: 3000), 3_074_457_345_618_258_602)
        XCTAssertEqual(NetStatsWindower.clampedInt(1e300), Int.max)
        var windower = NetStatsWindower(length: 1)
        _ = windower.add(t: 0, counters: stats())
        let window = windower.add(t: 1, counters: stats(video: (Int.max, Int.max, Int.max)))
        XCTAssertEqual(window?.video.bandwidth, Int.max)
        XCTAssertNil(window?.video.loss, "lost + received overflows: treated as unknown")
    }
}
