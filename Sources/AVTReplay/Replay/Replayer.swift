import AVTCore

/// Drives a timeline through the instrument on the virtual clock:
/// `ready()` at t=0; before each step, every timer due at or before its t fires (in due order,
/// ties by tracker id, pings first); then the step's getters change, its observations reach the
/// tracker and its action is emitted; after the last step, timers due at or before `until` fire
/// and the instrument shuts down.
public final class Replayer {
    public let settings: TimelineSettings
    public let instrument: Instrument
    public let trackers: [ScriptableTracker]
    private var lastStepT = 0
    private var ended = false

    /// Builds the instrument the settings describe and makes it ready at t=0.
    public init(settings: TimelineSettings, backend: Backend, identifiers: any IdentifierGenerator) {
        self.settings = settings
        let hub: HubCore =
            switch settings.effectiveHub {
            case .core: HubCore(pingInterval: settings.pingInterval)
            case .ads: HubCoreAds(pingInterval: settings.pingInterval)
            }
        instrument = Instrument(
            hub: hub, metricalc: settings.metrics ? NetStatsMetricalc() : nil, backend: backend,
            clock: VirtualClock(now: 0), identifiers: identifiers)
        trackers = settings.trackers.map { $0.kind.trackerType.init(spec: $0) }
        for tracker in trackers { instrument.addTracker(tracker) }
        instrument.ready()
    }

    /// Replays one step. Returns false, and replays nothing, for a step after `until`: the replay
    /// has ended there and later steps can be skipped.
    @discardableResult
    public func play(_ step: Step) throws(ReplayError) -> Bool {
        if let until = settings.until, step.t > until { return false }
        guard step.t >= instrument.clock.now else {
            throw ReplayError.timeRunsBackwards(step: step.origin, t: step.t, now: instrument.clock.now)
        }
        guard trackers.indices.contains(step.tracker) else {
            throw ReplayError.unknownTracker(step: step.origin, index: step.tracker)
        }
        instrument.advanceClock(to: step.t)
        lastStepT = step.t
        let tracker = trackers[step.tracker]
        for change in step.set { tracker.set(change.attribute, to: change.value) }
        tracker.observe(step: step.observe)
        if let action = step.action { tracker.emit(action, attributes: step.attributes) }
        return true
    }

    /// Fires the pings due up to `until` (default: the last step's t) and shuts the instrument down.
    public func finish() {
        guard !ended else { return }
        ended = true
        instrument.advanceClock(to: max(settings.until ?? lastStepT, instrument.clock.now))
        instrument.shutdown()
    }

    /// Ends an interrupted replay where it is: no further timers fire, every component ends its
    /// service (so the backends flush).
    public func stop() {
        guard !ended else { return }
        ended = true
        instrument.shutdown()
    }

    /// Replays a whole in-memory timeline.
    public static func replay(_ timeline: Timeline, backend: Backend, identifiers: any IdentifierGenerator) throws(ReplayError) {
        let replayer = Replayer(settings: timeline.settings, backend: backend, identifiers: identifiers)
        for step in timeline.steps {
            guard try replayer.play(step) else { break }
        }
        replayer.finish()
    }
}

/// A step the replayer cannot play (decoded timelines never produce these; hand-built ones may).
public enum ReplayError: Error, Equatable, CustomStringConvertible {
    case timeRunsBackwards(step: StepOrigin, t: Int, now: Int)
    case unknownTracker(step: StepOrigin, index: Int)

    public var description: String {
        switch self {
        case .timeRunsBackwards(let step, let t, let now):
            return "\(step): t \(t) is earlier than the replay's current time \(now)"
        case .unknownTracker(let step, let index):
            return "\(step): no tracker with index \(index)"
        }
    }
}
