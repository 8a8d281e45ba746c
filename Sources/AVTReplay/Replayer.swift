import AVTCore
import AVTTimeline
import AVTTrackers

/// Drives a timeline through the instrument on the virtual clock:
/// `ready()` at t=0; before each step, every timer due at or before its t fires (in due order,
/// ties by tracker id, pings first); then the step's getters change, its observations reach the
/// tracker and its action is emitted; after the last step, timers due at or before `until` fire
/// and the instrument shuts down.
///
/// The instrument is made ready on the first `play` (or an explicit `start()`), so a caller may
/// first add components of their own, e.g. a second backend, to `instrument`.
public final class Replayer {
    /// The settings the replay runs with.
    public let settings: TimelineSettings
    /// The instrument the steps drive.
    public let instrument: Instrument
    /// One tracker per declared tracker, by index.
    public let trackers: [ScriptableTracker]
    /// Sees each step's observations (tracker index, observations) at the step's time, just
    /// before its tracker takes them, so an analysis can follow the player as the tracker does.
    public var onObserve: ((Int, [Observation]) -> Void)? {
        get { observeWatcher }
        set { observeWatcher = newValue }
    }
    // Private behind `onObserve`: read on every step, a public stored property is checked for
    // exclusive access at run time on each read.
    private var observeWatcher: ((Int, [Observation]) -> Void)?
    private var lastStepT = 0
    private var started = false
    private var ended = false

    /// Builds the instrument the settings describe from `components` (OpenAVT's by default).
    public init(
        settings: TimelineSettings, backend: Backend, identifiers: any IdentifierGenerator,
        components: ReplayComponents = .standard
    ) {
        self.settings = settings
        instrument = Instrument(
            hub: components.makeHub(settings), metricalc: components.makeMetricalc(settings), backend: backend,
            clock: VirtualClock(now: 0), identifiers: identifiers)
        trackers = settings.trackers.map(components.makeTracker)
        for tracker in trackers { instrument.addTracker(tracker) }
    }

    /// Makes the instrument ready at t=0 (once; `play` and `finish` call it when needed).
    public func start() {
        guard !started else { return }
        started = true
        instrument.ready()
    }

    /// Replays one step. Returns false, and replays nothing, for a step after `until`: the replay
    /// has ended there and later steps can be skipped; also when a stop was requested while the
    /// timers before the step fired.
    @discardableResult
    public func play(_ step: Step) throws(ReplayError) -> Bool {
        if let until = settings.until, step.t > until { return false }
        guard step.t >= instrument.clock.now else {
            throw ReplayError.timeRunsBackwards(step: step.origin, t: step.t, now: instrument.clock.now)
        }
        guard trackers.indices.contains(step.tracker) else {
            throw ReplayError.unknownTracker(step: step.origin, index: step.tracker)
        }
        start()
        guard instrument.advanceClock(to: step.t) else { return false }
        lastStepT = step.t
        let tracker = trackers[step.tracker]
        for change in step.set { tracker.set(change.attribute, to: change.value) }
        if let observeWatcher, !step.observe.isEmpty { observeWatcher(step.tracker, step.observe) }
        tracker.observe(step: step.observe)
        if let action = step.action { tracker.emit(action, attributes: step.attributes) }
        // The source gives this tracker nothing more (`Step.endsTracker`): its service ends and
        // its getters and timers go, so a log of thousands of sessions, one tracker each, holds
        // the trackers of the sessions under way, not of every session so far.
        if step.endsTracker { instrument.removeTracker(step.tracker) }
        return true
    }

    /// Fires the pings due up to `until` (default: the last step's t) and shuts the instrument down.
    public func finish() {
        guard !ended else { return }
        start()
        ended = true
        instrument.advanceClock(to: max(settings.until ?? lastStepT, instrument.clock.now))
        instrument.shutdown()
    }

    /// Ends an interrupted replay where it is: no further timers fire, every component ends its
    /// service (so the backends flush).
    public func stop() {
        guard !ended else { return }
        start()
        ended = true
        instrument.shutdown()
    }

    /// Replays a whole in-memory timeline.
    public static func replay(
        _ timeline: Timeline, backend: Backend, identifiers: any IdentifierGenerator,
        components: ReplayComponents = .standard
    ) throws(ReplayError) {
        let replayer = Replayer(
            settings: timeline.settings, backend: backend, identifiers: identifiers, components: components)
        for step in timeline.steps {
            guard try replayer.play(step) else { break }
        }
        replayer.finish()
    }
}
