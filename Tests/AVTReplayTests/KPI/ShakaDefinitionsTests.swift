import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// The `shaka` set on HTML5 flows, worked by hand from Shaka Player (shaka-project/shaka-player):
/// - `Player.updateStateHistory_` (lib/player.js): buffering while the BufferingObserver is
///   STARVING, else paused while `video.paused`, else ended while `video.ended`, else playing; run
///   on the element's `playing`, `pause` and `ended` and on every buffering change
///   (`updateBufferState_`), never on `play`.
/// - `startBufferManagement_`: a load begins STARVING; `onSeek_` polls the buffer at once, so the
///   wait for data at a seek's new position is buffering.
/// - `StateHistory.update` / `getTimeSpentIn` (lib/util/state_history.js) and `Stats.getBlob`
///   (lib/util/stats.js): `playTime`, `pauseTime`, `bufferingTime` are the time in each state, the
///   open one until `getStats()`.
/// - `loadLatency`: `load()` → the element's `loadeddata` (`listenOnce`, so the first one).
/// - `completionPercent` (`getStats`): `Math.round(100 × currentTime / duration)`, the highest
///   seen ("high water mark", externs/shaka/player.js), none without a duration.
/// The element's `loadstart` is `load()`; `canplay`/`canplaythrough`/`playing` (data ahead) end
/// STARVING, `waiting`/`seeking` begin it, `seeked` ends it unless the element waited during the
/// seek. The recording ends at its last step, where `getStats()` closes the open state.
final class ShakaDefinitionsTests: XCTestCase {
    private typealias K = KPITestSupport
    private static let html5 = #"[{"name": "p", "kind": "html5"}]"#

    private func html5(_ steps: [(Int, String)]) throws -> SessionKPIs {
        try K.session(steps.map { K.observe($0.0, $0.1) }.joined(separator: ","), trackers: Self.html5)
    }

    private func events(_ events: [(Int, String)]) throws -> SessionKPIs {
        try html5(events.map { ($0.0, #""event": "\#($0.1)""#) })
    }

    /// Autoplay: `loadstart` 0, `play` 100, `loadeddata` 600, `playing` 900, `pause` and `ended`
    /// 5000. STARVING from the load (`startBufferManagement_`) until `playing` 900: buffering 900
    /// (`play` and `loadeddata` update nothing); playing 900–5000: 4100; at the end the element is
    /// paused, and `updateStateHistory_` tests paused before ended: paused from 5000, 0 ms.
    /// `loadLatency`: `loadstart` 0 → `loadeddata` 600.
    func testAutoplayToTheEnd() throws {
        let v = K.values(
            try events([
                (0, "loadstart"), (100, "play"), (600, "loadeddata"), (900, "playing"), (5000, "pause"),
                (5000, "ended"),
            ]),
            0, .shaka)
        XCTAssertEqual(v["bufferingTime"], .int(900))
        XCTAssertEqual(v["playTime"], .int(4100))
        XCTAssertEqual(v["pauseTime"], .int(0))
        XCTAssertEqual(v["loadLatency"], .int(600))
        XCTAssertNil(v["completionPercent"])  // no duration: NaN in getStats
    }

    /// Click to play: `loadstart` 0, `loadeddata` 420, `canplay` 430 (data ahead: no longer
    /// STARVING, and `updateBufferState_` finds the element paused), `play` 8000 (no update),
    /// `playing` 8300, then 10000. Buffering 0–430; paused 430–8300, the 300 ms from `play` to
    /// `playing` included; playing 8300–10000.
    func testClickToPlayWaitsPausedUntilPlaying() throws {
        let v = K.values(
            try events([
                (0, "loadstart"), (420, "loadeddata"), (430, "canplay"), (8000, "play"), (8300, "playing"),
                (10000, "timeupdate"),
            ]),
            0, .shaka)
        XCTAssertEqual(v["bufferingTime"], .int(430))
        XCTAssertEqual(v["pauseTime"], .int(7870))
        XCTAssertEqual(v["playTime"], .int(1700))
        XCTAssertEqual(v["loadLatency"], .int(420))
    }

    /// `seeking` 5000, `waiting` 5010, `seeked` 5400, `playing` 5410: `onSeek_` polls the buffer at
    /// the seek, STARVING until data plays at 5410 (the element waited, so `seeked` does not end
    /// it): buffering 410, beside the load's 0–900. Playing 900–5000 and 5410–8000. No
    /// `loadeddata`: no `loadLatency` (NaN).
    func testBufferingDuringASeekIsBuffering() throws {
        let v = K.values(
            try events([
                (0, "loadstart"), (100, "play"), (900, "playing"), (5000, "seeking"), (5010, "waiting"),
                (5400, "seeked"), (5410, "playing"), (8000, "pause"), (8000, "ended"),
            ]), 0, .shaka)
        XCTAssertEqual(v["bufferingTime"], .int(900 + 410))
        XCTAssertEqual(v["playTime"], .int(4100 + 2590))
        XCTAssertEqual(v["pauseTime"], .int(0))
        XCTAssertNil(v["loadLatency"])
    }

    /// A seek while paused: `pause` 3000, `seeking` 4000, `seeked` 4300, `play` 6000, `playing`
    /// 6050, last step 7000. Paused 3000–4000; STARVING at the seek (`onSeek_`) until `seeked`
    /// 4300 (no wait): buffering 300; then `updateBufferState_` finds the element paused: paused
    /// 4300–6050 (`play` updates nothing). Playing 1000–3000 and 6050–7000; buffering 0–1000 too.
    func testASeekWhilePausedBuffersUntilSeeked() throws {
        let v = K.values(
            try events([
                (0, "loadstart"), (0, "play"), (1000, "playing"), (3000, "pause"), (4000, "seeking"),
                (4300, "seeked"), (6000, "play"), (6050, "playing"), (7000, "timeupdate"),
            ]), 0, .shaka)
        XCTAssertEqual(v["pauseTime"], .int(1000 + 1750))
        XCTAssertEqual(v["bufferingTime"], .int(1000 + 300))
        XCTAssertEqual(v["playTime"], .int(2000 + 950))
    }

    /// `completionPercent`: duration 100 s; playing from 0 at 1000, paused at 13500: currentTime
    /// 12.5 s, `Math.round(12.5)` = 13; a seek back to 5 s (5 %) leaves the high water mark at 13.
    func testCompletionPercentIsTheRoundedHighWaterMark() throws {
        let v = K.values(
            try html5([
                (0, #""currentTime": 0, "event": "loadstart""#), (200, #""duration": 100, "event": "loadedmetadata""#),
                (500, #""event": "play""#), (1000, #""event": "playing""#), (13500, #""event": "pause""#),
                (14000, #""currentTime": 5, "event": "seeking""#), (14100, #""event": "seeked""#),
            ]), 0, .shaka)
        XCTAssertEqual(v["completionPercent"], .int(13))
    }

    /// A playlist: the second `loadstart` is a new `load()` (Stats reset per load). Item 1: load
    /// 0, `loadeddata` 300, `playing` 500, `pause`/`ended` 2000; item 2: load 2000, `loadeddata`
    /// 2100, `playing` 2400, last step 3000. Item 1: buffering 500, playing 1500, paused 0 (the
    /// new load ends it). Item 2: buffering 400, playing 600. Totals add the times; the load
    /// latency is the mean of 300 and 100.
    func testAPlaylistTotalsAddTheTimes() throws {
        let s = try events([
            (0, "loadstart"), (0, "play"), (300, "loadeddata"), (500, "playing"), (2000, "pause"),
            (2000, "ended"), (2000, "loadstart"), (2000, "play"), (2100, "loadeddata"), (2400, "playing"),
            (3000, "timeupdate"),
        ])
        XCTAssertEqual(K.values(s, 0, .shaka)["playTime"], .int(1500))
        XCTAssertEqual(K.values(s, 1, .shaka)["bufferingTime"], .int(400))
        let totals = K.totals(s, .shaka)
        XCTAssertEqual(totals["bufferingTime"], .int(900))
        XCTAssertEqual(totals["playTime"], .int(2100))
        XCTAssertEqual(totals["pauseTime"], .int(0))
        XCTAssertEqual(totals["loadLatency"], .int(200))
    }

    /// Shaka measures an HTML5 element: a generic tracker's playback has no shaka KPIs.
    func testAGenericTrackerHasNone() throws {
        let s = try K.session(
            [K.step(0, "MediaRequest"), K.step(1000, "Start"), K.step(5000, "End")].joined(separator: ","))
        XCTAssertEqual(K.values(s, 0, .shaka), [:])
        XCTAssertEqual(K.totals(s, .shaka), [:])
    }
}
