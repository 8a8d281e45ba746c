import AVTCore
import XCTest

/// The replayer's own decisions (where upstream is silent or would crash) and the engine's
/// timer and lifecycle rules.
final class ReplayerRulesTests: XCTestCase {

    // "Timers fire before the steps of the same instant: a step at the ping's due time sees the Ping first"
    func testTimerFiresBeforeStepAtSameInstant() {
        let r = Replay()
        r.run([Step(0, 0, .streamLoad), Step(1000, 0, .start)])
        let d = r.step(31000, .pauseBegin)
        let groups = Replay.groups(d)
        XCTAssertEqual(groups.count, 2, "a Ping then the PauseBegin: \(d)")
        guard groups.count == 2 else { return }
        r.expect(groups[0], .ping, at: 31000, metrics: [("PlayTime", 30000)], [.deltaPlayTime: 30000])
        r.expect(
            groups[1], .pauseBegin, at: 31000, metrics: [("PlayTime", 0)],
            [.deltaPlayTime: 0, ts(.ping): 0, .inPauseBlock: true])
    }

    // "Timers due before a step fire in due-time order, each at its own due time"
    func testTimersFireInDueTimeOrderAtTheirOwnTimes() {
        let r = Replay(trackers: [DummyTracker(), DummyTracker()])
        r.run([Step(0, 1, .start), Step(5000, 0, .start)])
        let d = r.advance(to: 40000)
        XCTAssertEqual(Replay.pings(d), ["30000/1", "35000/0"])
        XCTAssertEqual(r.clock.now, 40000, "the clock ends at the requested time")
    }

    // "Ping ties at the same due time fire by ascending tracker id"
    func testPingTiesFireByTrackerId() {
        let r = Replay(trackers: [DummyTracker(), DummyTracker(), DummyTracker()])
        // Started in the opposite order of their ids, all due at 30000.
        r.run([Step(0, 2, .start), Step(0, 1, .start), Step(0, 0, .start)])
        let d = r.advance(to: 30000)
        XCTAssertEqual(Replay.pings(d), ["30000/0", "30000/1", "30000/2"])
    }

    // "startPing always replaces a previous timer for the same id: the first Ping is one interval after the restart"
    func testRestartingPingReplacesIt() {
        let r = Replay()
        r.run([Step(0, 0, .streamLoad), Step(0, 0, .start)])
        r.advance(to: 10000)
        r.instrument.startPing(trackerId: 0, interval: 30000)
        r.expectBlocked(r.advance(to: 39999))
        XCTAssertEqual(Replay.pings(r.advance(to: 70000)), ["40000/0", "70000/0"])
    }

    // "Under HubCoreAds an AdBegin sent through the content tracker restarts the content ping"
    func testContentAdBeginRestartsContentPing() {
        let r = Replay.ads()
        r.run([Step(0, 0, .streamLoad), Step(0, 0, .start), Step(5000, 1, .adBreakBegin)])
        // The content is playing: PlayTime since A's AdBreakBegin, the last accepted event.
        r.expect(
            r.step(10000, .adBegin, tracker: 0), .adBegin, tracker: 0, metrics: [("PlayTime", 5000)],
            [.countAds: 1])
        r.expectBlocked(r.advance(to: 39999))
        XCTAssertEqual(Replay.pings(r.advance(to: 40000)), ["40000/0"])
    }

    // "A content AdFinish clears inAd and stops the content ping while the ads tracker's ping keeps running"
    func testContentAdFinishStopsOnlyContentPing() {
        let r = Replay.ads()
        r.run([Step(0, 0, .streamLoad), Step(0, 0, .start), Step(1000, 1, .adBreakBegin), Step(2000, 1, .adBegin)])
        r.expect(
            r.step(3000, .adFinish, tracker: 0), .adFinish, tracker: 0, metrics: [("PlayTime", 1000)],
            [.inAdBlock: false])
        XCTAssertFalse(r.trackers[1].state.inAd, "inAd cleared on every tracker")
        XCTAssertFalse(r.instrument.isPinging(trackerId: 0))
        XCTAssertTrue(r.instrument.isPinging(trackerId: 1))
        XCTAssertEqual(Replay.pings(r.advance(to: 32000)), ["32000/1"], "only the ads ping fires")
    }

    // "iOS: a rejected AdFinish still stops the emitting tracker's ping"
    func testRejectedAdFinishStillStopsPing() {
        let r = Replay.ads()
        r.run([Step(0, 1, .adBreakBegin), Step(1000, 1, .adBegin), Step(2000, 0, .adFinish)])
        XCTAssertTrue(r.instrument.isPinging(trackerId: 1))
        r.expectBlocked(r.step(3000, .adFinish, tracker: 1))
        XCTAssertFalse(r.instrument.isPinging(trackerId: 1), "stopped although the AdFinish was rejected")
        r.expectBlocked(r.advance(to: 100000))
    }

    // "Stop and Next are not swallowed inside an ad break; only End is"
    func testStopAndNextNotSwallowedInsideAdBreak() {
        let r = Replay.ads()
        r.run([Step(0, 0, .streamLoad), Step(1000, 0, .start), Step(2000, 1, .adBreakBegin)])
        r.expectBlocked(r.step(2500, .end, tracker: 0))
        r.expect(
            r.step(3000, .stop, tracker: 0), .stop, metrics: [("NumEnds", 1), ("PlayTime", 1000)],
            [.inAdBreakBlock: true])
        r.expect(r.step(4000, .start, tracker: 0), .start, metrics: [("StartTime", 4000), ("NumPlays", 1)])
        r.expect(
            r.step(5000, .next, tracker: 0), .next, metrics: [("NumEnds", 1), ("PlayTime", 1000)],
            [.inAdBreakBlock: true])
    }

    // "removeTracker leaves the timer running but its ticks emit nothing"
    func testRemoveTrackerLeavesTimerRunningButSilent() {
        let r = Replay(trackers: [DummyTracker(), DummyTracker()])
        r.run([Step(0, 0, .streamLoad), Step(0, 0, .start)])
        r.advance(to: 1000)
        XCTAssertTrue(r.instrument.removeTracker(0))
        XCTAssertEqual(r.trackers[0].endOfServiceCalls, 1)
        XCTAssertNil(r.instrument.tracker(id: 0))
        XCTAssertTrue(r.instrument.isPinging(trackerId: 0), "removeTracker does not stop the ping timer")
        XCTAssertFalse(r.instrument.removeTracker(0), "a removed id is gone")
        r.expectBlocked(r.advance(to: 95000))
        r.expectBlocked(r.step(96000, .error, tracker: 0))
        // Ids are never reused.
        XCTAssertEqual(r.instrument.addTracker(DummyTracker()), 2)
    }

    // "shutdown() does not cancel pings; trackers stay registered, their getters are dropped"
    func testShutdownDoesNotCancelPings() {
        let r = Replay()
        r.run([Step(0, 0, .streamLoad), Step(0, 0, .start)])
        r.advance(to: 1000)
        r.instrument.shutdown()
        XCTAssertEqual(r.trackers[0].endOfServiceCalls, 1)
        XCTAssertEqual(r.backend.endOfServiceCalls, 1)
        XCTAssertTrue(r.instrument.isPinging(trackerId: 0))
        let d = r.advance(to: 60000)
        XCTAssertEqual(Replay.pings(d), ["30000/0", "60000/0"])
        let ping = d.last?.event
        XCTAssertEqual(ping?[.deltaPlayTime], .int(30000))
        XCTAssertNil(ping?[.isAdsTracker], "getters were dropped by shutdown")
    }

    // "A content PauseFinish accepted with no delivered PauseBegin adds nothing to accumPauseTime, is delivered, and warns"
    func testPauseFinishWithoutPauseBeginWarns() {
        let r = Replay.ads()
        r.run([Step(0, 0, .streamLoad), Step(100, 0, .start), Step(200, 1, .adBreakBegin), Step(300, 1, .adBegin)])
        // The content tracker's AdPauseBegin passes the ads pre-step (inAd) and sets its isPaused.
        r.expect(r.step(400, .adPauseBegin, tracker: 0), .adPauseBegin, tracker: 0, [.inPauseBlock: true])
        XCTAssertTrue(r.trackers[0].state.isPaused)
        XCTAssertEqual(r.warnings, [])

        let finish = r.expect(
            r.step(500, .pauseFinish, tracker: 0), .pauseFinish, tracker: 0, metrics: [],
            [.accumPauseTime: 0, .inPauseBlock: false], absent: [ts(.pauseBegin)])
        XCTAssertNotNil(finish)
        XCTAssertFalse(r.trackers[0].state.isPaused)
        XCTAssertEqual(r.warnings.count, 1, "one warning for the missing timeSincePauseBegin")
        XCTAssertEqual(r.warnings.first?.t, 500)
        XCTAssertTrue(r.warnings.first?.message.contains("accumPauseTime") ?? false, "\(r.warnings)")
        XCTAssertEqual(r.hub.accumPauseTime, 0)
    }

    // "HubCoreAds content position comes from the highest-id content tracker whose position getter has a value"
    func testAdsContentPositionFromHighestIdContentTracker() {
        let c0 = DummyTracker(position: 111)
        let c1 = DummyTracker(position: 222)
        let ads = DummyTracker(ads: true, position: 999)
        let r = Replay(hub: HubCoreAds(), trackers: [c0, c1, ads])
        r.expect(r.step(0, .adBreakBegin, tracker: 2), .adBreakBegin, tracker: 2, [.position: 222])
        r.expect(r.step(10, .qualityChangeUp, tracker: 0), .qualityChangeUp, tracker: 0, [.position: 222])
        c1.position = nil
        r.expect(r.step(20, .adBegin, tracker: 2), .adBegin, [.position: 111])
        c0.position = nil
        // No content position: the ads tracker's own position stays.
        r.expect(r.step(30, .adFinish, tracker: 2), .adFinish, [.position: 999])
    }

    // "ready() calls instrumentReady on trackers in ascending id"
    func testReadyCallsTrackersInAscendingId() {
        let r = Replay(trackers: (0..<3).map { _ in DummyTracker(emitsTrackerInit: true) })
        XCTAssertEqual(r.drain().compactMap(\.event?.trackerId), [0, 1, 2])
        XCTAssertEqual(r.backend.readyCalls, 1)
    }

    // "SeededUUIDGenerator: same seed → same ids, other seed → other ids, upper-case UUID format"
    func testSeededUUIDGenerator() throws {
        func ids(_ seed: UInt64, _ n: Int = 8) -> [String] {
            var g = SeededUUIDGenerator(seed: seed)
            return (0..<n).map { _ in g.next() }
        }
        let a = ids(42)
        let b = ids(42)
        let c = ids(43)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
        XCTAssertTrue(Set(a).isDisjoint(with: c))
        XCTAssertEqual(Set(a).count, a.count, "no repeats within a stream")
        let uuid = try Regex("^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$")
        for id in a + c {
            XCTAssertNotNil(id.wholeMatch(of: uuid), "\(id) is not an upper-case v4 UUID")
        }
    }

    // "Replays with the same seed hand out the same instrument, stream and playback ids"
    func testSameSeedGivesIdenticalReplays() {
        func ids(seed: UInt64) -> [String] {
            let r = Replay(seed: seed)
            let d = r.run([Step(0, 0, .streamLoad), Step(10, 0, .start), Step(20, 0, .end), Step(30, 0, .start)])
            let events = d.compactMap(\.event)
            return [r.instrument.instrumentId] + events.compactMap { $0[.playbackId]?.stringValue }
                + events.compactMap { $0[.streamId]?.stringValue }
        }
        let first = ids(seed: 7)
        XCTAssertEqual(first, ids(seed: 7))
        XCTAssertNotEqual(first, ids(seed: 8))
        XCTAssertEqual(Set(first.dropFirst().prefix(4)).count, 2, "P1 then P2 after End")
    }
}
