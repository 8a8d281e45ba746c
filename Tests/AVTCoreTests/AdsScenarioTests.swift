import AVTCore
import XCTest

/// The HubCoreAds conformance scenarios S19–S22: HubCoreAds + MetricalcCore,
/// content tracker C (id 0, isAdsTracker=false, position 0) and ads tracker A (id 1, isAdsTracker=true).
final class AdsScenarioTests: XCTestCase {
    // C and A are the content and ads trackers of the upstream test scenarios.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    private let C = 0
    // swift-format-ignore: AlwaysUseLowerCamelCase
    private let A = 1

    // "Pre-roll: ad events carry A's state and C's position; StartTime=15500 includes the ad; ads ping armed then cancelled"
    func testS19PrerollOneAd() {
        let r = Replay.ads()
        r.expect(
            r.step(0, .streamLoad, tracker: C), .streamLoad, metrics: [("NumLoads", 1)],
            [.countAds: 0, .inAdBreakBlock: false, .inAdBlock: false, .position: 0])
        r.expect(r.step(10, .bufferBegin, tracker: C), .bufferBegin, metrics: [], [.inBufferBlock: true])

        r.expect(
            r.step(100, .adBreakBegin, tracker: A), .adBreakBegin, tracker: A, metrics: [],
            [
                .senderId: r.sender(A), .inAdBreakBlock: true, .inAdBlock: false, .countAds: 0, .position: 0,
                .inBufferBlock: false, .inPlaybackBlock: false,
            ])
        XCTAssertTrue(r.trackers[C].state.inAdBreak, "AdBreakBegin sets inAdBreak on the content tracker too")
        XCTAssertTrue(r.trackers[A].state.inAdBreak)

        r.expect(
            r.step(200, .adBegin, tracker: A), .adBegin, metrics: [],
            [.inAdBlock: true, .countAds: 1, ts(.adBreakBegin): 100])
        XCTAssertTrue(r.instrument.isPinging(trackerId: A), "AdBegin arms the ads tracker's ping")

        r.expect(
            r.step(15200, .adFinish, tracker: A), .adFinish, metrics: [],
            [.inAdBlock: false, .inAdBreakBlock: true, ts(.adBegin): 15000])
        XCTAssertFalse(r.instrument.isPinging(trackerId: A), "AdFinish cancels the ads ping")

        r.expect(
            r.step(15300, .adBreakFinish, tracker: A), .adBreakFinish, metrics: [],
            [.inAdBreakBlock: false, ts(.adBreakBegin): 15200])
        r.expect(
            r.step(15400, .bufferFinish, tracker: C), .bufferFinish, metrics: [],
            [ts(.bufferBegin): 15390, .accumBufferTime: 15390])
        r.expect(
            r.step(15500, .start, tracker: C), .start, metrics: [("StartTime", 15500), ("NumPlays", 1)],
            [.countAds: 1])
        r.expectBlocked(r.advance(to: 40000))
    }

    // "Mid-roll: ad events reset the play-time clock (PauseBegin PlayTime=10), content End inside the break swallowed"
    func testS20MidrollContentEndSwallowed() {
        let r = Replay.ads()
        r.expect(r.step(0, .streamLoad, tracker: C), .streamLoad, metrics: [("NumLoads", 1)])
        r.expect(r.step(1000, .start, tracker: C), .start, metrics: [("StartTime", 1000), ("NumPlays", 1)])
        XCTAssertTrue(r.instrument.isPinging(trackerId: C))

        r.expect(
            r.step(11000, .adBreakBegin, tracker: A), .adBreakBegin, tracker: A, metrics: [],
            absent: [.deltaPlayTime])
        r.expect(
            r.step(11010, .pauseBegin, tracker: C), .pauseBegin, tracker: C, metrics: [("PlayTime", 10)],
            [.deltaPlayTime: 10, .inAdBreakBlock: true, .inPauseBlock: true])
        r.expect(r.step(11100, .adBegin, tracker: A), .adBegin, metrics: [], [.countAds: 1])
        r.expectBlocked(r.step(12000, .end, tracker: C))
        XCTAssertFalse(r.trackers[C].state.didFinish, "the swallowed End did not finish the playback")

        r.expect(r.step(26100, .adFinish, tracker: A), .adFinish, metrics: [])
        r.expect(r.step(26200, .adBreakFinish, tracker: A), .adBreakFinish, metrics: [])
        r.expect(
            r.step(26300, .pauseFinish, tracker: C), .pauseFinish, metrics: [],
            [ts(.pauseBegin): 15290, .accumPauseTime: 15290])
        r.expect(
            r.step(30000, .end, tracker: C), .end, metrics: [("NumEnds", 1), ("PlayTime", 3700)],
            [.playbackId: "P1"])
        XCTAssertFalse(r.instrument.isPinging(trackerId: C), "content ping cancelled before 31000")
        r.expectBlocked(r.advance(to: 50000))
    }

    // "Ad mistakes: ad events outside a break, repeated begins/finishes and AdPause outside an ad are blocked"
    func testS21AdMistakes() {
        let r = Replay.ads()
        // Before any break.
        r.expectBlocked(r.step(0, .adBegin, tracker: A))
        r.expectBlocked(r.step(100, .adFinish, tracker: A))
        r.expectBlocked(r.step(200, .adBreakFinish, tracker: A))
        r.expectBlocked(r.step(300, .adPauseBegin, tracker: A))

        r.expect(r.step(400, .adBreakBegin, tracker: A), .adBreakBegin, metrics: [], [.inAdBreakBlock: true])
        r.expectBlocked(r.step(500, .adBreakBegin, tracker: A))
        r.expect(
            r.step(600, .adBegin, tracker: A), .adBegin, metrics: [],
            [.inAdBlock: true, .countAds: 1, ts(.adBreakBegin): 200])
        r.expectBlocked(r.step(700, .adBreakBegin, tracker: A))
        r.expectBlocked(r.step(800, .adBegin, tracker: A))

        r.expect(r.step(900, .adPauseBegin, tracker: A), .adPauseBegin, metrics: [], [.inPauseBlock: true])
        r.expect(
            r.step(1000, .adPauseFinish, tracker: A), .adPauseFinish, metrics: [],
            [ts(.adPauseBegin): 100, .inPauseBlock: false, .accumPauseTime: 0])

        r.expect(r.step(1100, .adFinish, tracker: A), .adFinish, metrics: [], [.inAdBlock: false])
        r.expectBlocked(r.step(1200, .adFinish, tracker: A))
        r.expectBlocked(r.step(1300, .adPauseBegin, tracker: A))

        r.expect(
            r.step(1400, .adBreakFinish, tracker: A), .adBreakFinish, metrics: [],
            [.inAdBreakBlock: false, .countAds: 1])
        r.expectBlocked(r.step(1500, .adBreakFinish, tracker: A))
        XCTAssertEqual(r.trackers[C].state, TrackerState(), "the content tracker ends where it started")
    }

    // "Skipped ad leaves inAd set: AdBreakFinish inAdBlock=true, next AdBegin blocked, ads ping keeps running; post-roll gets P2"
    func testS22SkippedAdAndPostroll() {
        let r = Replay.ads()
        r.expect(r.step(0, .streamLoad, tracker: C), .streamLoad, metrics: [("NumLoads", 1)])
        r.expect(r.step(1000, .start, tracker: C), .start, metrics: [("StartTime", 1000), ("NumPlays", 1)])

        r.expect(r.step(5000, .adBreakBegin, tracker: A), .adBreakBegin, metrics: [])
        r.expect(r.step(5100, .adBegin, tracker: A), .adBegin, metrics: [], [.countAds: 1])
        r.expect(r.step(6000, .adSkip, tracker: A), .adSkip, metrics: [], [.inAdBlock: true])
        r.expect(
            r.step(6100, .adBreakFinish, tracker: A), .adBreakFinish, metrics: [],
            [.inAdBreakBlock: false, .inAdBlock: true])
        XCTAssertTrue(r.instrument.isPinging(trackerId: A), "the skipped ad's ping keeps running")

        r.expect(
            r.step(9000, .end, tracker: C), .end, metrics: [("NumEnds", 1), ("PlayTime", 2900)],
            [.playbackId: "P1", .inAdBlock: true])
        r.expect(
            r.step(9100, .adBreakBegin, tracker: A), .adBreakBegin, metrics: [],
            [.playbackId: "P2", .inAdBreakBlock: true])
        r.expectBlocked(r.step(9200, .adBegin, tracker: A))
        XCTAssertEqual((r.hub as? HubCoreAds)?.countAds, 1, "countAds stays 1")

        r.expectBlocked(r.advance(to: 35099))
        let ping = r.advance(to: 35100)
        XCTAssertEqual(Replay.pings(ping), ["35100/1"], "the ads ping armed at 5100 fires at 35100")
        r.expect(
            ping, .ping, at: 35100, tracker: A, metrics: [],
            [.senderId: r.sender(A), .inAdBreakBlock: true, .inAdBlock: true, .countAds: 1, .playbackId: "P2"],
            absent: [.deltaPlayTime])
    }
}
