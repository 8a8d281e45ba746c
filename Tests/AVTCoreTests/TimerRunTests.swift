import AVTCore
import XCTest

/// The instrument's timers as the clock advances: every timer due at or before the target fires
/// at its own due time, in due-time order, ties by tracker id then slot (pings first), however
/// the ticks are grouped internally; a tick that starts or stops a timer counts from the next one.
final class TimerRunTests: XCTestCase {
    private var fired: [String] = []

    private func makeInstrument(trackers: Int) -> Instrument {
        let instrument = Instrument(
            hub: HubCore(), backend: RecordingBackend(), identifiers: SeededUUIDGenerator(seed: 0))
        for _ in 0..<trackers { instrument.addTracker(DummyTracker()) }
        instrument.ready()
        return instrument
    }

    private func record(_ name: String, _ instrument: Instrument) { fired.append("\(instrument.clock.now) \(name)") }

    /// The definition's order: every tick of every timer before `t`, sorted by (due, tracker, slot).
    private func expected(_ timers: [(name: String, tracker: Int, slot: Int, interval: Int)], upTo t: Int) -> [String] {
        var ticks: [(due: Int, tracker: Int, slot: Int, name: String)] = []
        for timer in timers {
            for due in stride(from: timer.interval, through: t, by: timer.interval) {
                ticks.append((due, timer.tracker, timer.slot, timer.name))
            }
        }
        ticks.sort { ($0.due, $0.tracker, $0.slot) < ($1.due, $1.tracker, $1.slot) }
        return ticks.map { "\($0.due) \($0.name)" }
    }

    func testTicksOfSeveralTimersInterleaveInDueOrderWithTies() {
        let instrument = makeInstrument(trackers: 2)
        let timers = [("a", 1, 1, 300), ("b", 0, 2, 500), ("c", 0, 1, 700), ("d", 1, 2, 100)]
        for (name, tracker, slot, interval) in timers {
            instrument.startTimer(trackerId: tracker, slot: slot, interval: interval) {
                [unowned self, unowned instrument] in
                record(name, instrument)
            }
        }
        // Stops between the ticks and on them.
        for t in [50, 100, 1000, 1500, 2100, 4200] { XCTAssertTrue(instrument.advanceClock(to: t)) }
        XCTAssertEqual(fired, expected(timers.map { ($0.0, $0.1, $0.2, $0.3) }, upTo: 4200))
        XCTAssertEqual(instrument.clock.now, 4200)
    }

    func testATickThatStartsATimerMakesItFireFromTheNextTick() {
        let instrument = makeInstrument(trackers: 2)
        var ticks = 0
        // Tracker 1's timer starts tracker 0's at its second tick (t=200): that one first fires at
        // 350, then ties with tracker 1's at 500, where tracker 0 goes first.
        instrument.startTimer(trackerId: 1, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("one", instrument)
            ticks += 1
            if ticks == 2 {
                instrument.startTimer(trackerId: 0, slot: 1, interval: 150) { [unowned self, unowned instrument] in
                    record("zero", instrument)
                }
            }
        }
        instrument.advanceClock(to: 520)
        XCTAssertEqual(
            fired, ["100 one", "200 one", "300 one", "350 zero", "400 one", "500 zero", "500 one"])
    }

    func testATickThatStopsOrRestartsItsTimer() {
        let instrument = makeInstrument(trackers: 1)
        var ticks = 0
        instrument.startTimer(trackerId: 0, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("fast", instrument)
            ticks += 1
            // At its third tick (t=300) the timer is started again, slower: next at 600, 900.
            if ticks == 3 {
                instrument.startTimer(trackerId: 0, slot: 1, interval: 300) { [unowned self, unowned instrument] in
                    record("slow", instrument)
                    if instrument.clock.now == 900 { instrument.stopTimer(trackerId: 0, slot: 1) }
                }
            }
        }
        instrument.advanceClock(to: 2000)
        XCTAssertEqual(fired, ["100 fast", "200 fast", "300 fast", "600 slow", "900 slow"])
    }

    func testAStopRequestEndsTheAdvanceAtThatTickAndTheNextAdvanceGoesOn() {
        let instrument = makeInstrument(trackers: 1)
        instrument.startTimer(trackerId: 0, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("tick", instrument)
        }
        instrument.isStopRequested = { [unowned instrument] in instrument.clock.now == 300 }
        XCTAssertFalse(instrument.advanceClock(to: 1000))
        XCTAssertEqual(instrument.clock.now, 300, "the clock stays at the tick that asked to stop")
        instrument.isStopRequested = { false }
        XCTAssertTrue(instrument.advanceClock(to: 500))
        XCTAssertEqual(fired, ["100 tick", "200 tick", "300 tick", "400 tick", "500 tick"])
    }

    // Idle timers: an idle timer's ticks are skipped; woken, it fires on its own schedule again,
    // from the first tick that has not passed (one at the current time passes unless the clock
    // is firing this time's timers and comes to it later).

    func testAnIdleTimerSkipsItsTicksAndKeepsItsScheduleWhenWokenBetweenAdvances() {
        let instrument = makeInstrument(trackers: 1)
        instrument.startTimer(trackerId: 0, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("tick", instrument)
            if instrument.clock.now == 200 { instrument.idleTimer(trackerId: 0, slot: 1) }
        }
        instrument.advanceClock(to: 650)
        XCTAssertTrue(instrument.isTimerIdle(trackerId: 0, slot: 1))
        // Woken at 650 (a step's time): the schedule's next tick is 700.
        instrument.wakeTimer(trackerId: 0, slot: 1)
        XCTAssertFalse(instrument.isTimerIdle(trackerId: 0, slot: 1))
        instrument.advanceClock(to: 800)
        XCTAssertEqual(fired, ["100 tick", "200 tick", "700 tick", "800 tick"])
    }

    func testATimerWokenAtATimeOnItsScheduleOutsideTheTicksWaitsForTheNextTick() {
        let instrument = makeInstrument(trackers: 1)
        instrument.startTimer(trackerId: 0, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("tick", instrument)
            if instrument.clock.now == 100 { instrument.idleTimer(trackerId: 0, slot: 1) }
        }
        // At 400 every tick due at 400 has passed (skipped while idle): the next is 500.
        instrument.advanceClock(to: 400)
        instrument.wakeTimer(trackerId: 0, slot: 1)
        instrument.advanceClock(to: 500)
        XCTAssertEqual(fired, ["100 tick", "500 tick"])
    }

    func testATimerWokenByAnEarlierTimersTickFiresItsTickOfThatTime() {
        let instrument = makeInstrument(trackers: 2)
        // Tracker 1's timer idles at once; tracker 0's wakes it at 300, before tracker 1's tick of
        // 300 would come (tracker 0 goes first): that tick fires. At 600 tracker 1 idles again,
        // and tracker 0's wake at 900 is again early enough.
        instrument.startTimer(trackerId: 1, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("one", instrument)
            if instrument.clock.now % 300 != 0 || instrument.clock.now == 600 {
                instrument.idleTimer(trackerId: 1, slot: 1)
            }
        }
        instrument.startTimer(trackerId: 0, slot: 1, interval: 300) { [unowned self, unowned instrument] in
            record("zero", instrument)
            instrument.wakeTimer(trackerId: 1, slot: 1)
        }
        instrument.advanceClock(to: 950)
        XCTAssertEqual(
            fired,
            ["100 one", "300 zero", "300 one", "400 one", "600 zero", "600 one", "900 zero", "900 one"])
    }

    func testATimerWokenByALaterTimersTickWaitsForItsNextTick() {
        let instrument = makeInstrument(trackers: 2)
        // Tracker 0's timer idles at once; tracker 1's wakes it at 300, after tracker 0's tick of
        // 300 came (skipped): the next is 400.
        instrument.startTimer(trackerId: 0, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("zero", instrument)
            if instrument.clock.now != 400 { instrument.idleTimer(trackerId: 0, slot: 1) }
        }
        instrument.startTimer(trackerId: 1, slot: 1, interval: 300) { [unowned self, unowned instrument] in
            record("one", instrument)
            instrument.wakeTimer(trackerId: 0, slot: 1)
        }
        instrument.advanceClock(to: 650)
        XCTAssertEqual(fired, ["100 zero", "300 one", "400 zero", "500 zero", "600 one"])
    }

    func testStartingAnIdleTimerAgainMakesItFire() {
        let instrument = makeInstrument(trackers: 1)
        instrument.startTimer(trackerId: 0, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("old", instrument)
            instrument.idleTimer(trackerId: 0, slot: 1)
        }
        instrument.advanceClock(to: 250)
        instrument.startTimer(trackerId: 0, slot: 1, interval: 100) { [unowned self, unowned instrument] in
            record("new", instrument)
        }
        instrument.advanceClock(to: 450)
        XCTAssertEqual(fired, ["100 old", "350 new", "450 new"])
    }
}
