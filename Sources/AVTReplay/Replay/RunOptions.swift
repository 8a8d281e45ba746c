import AVTCore

/// What the command line may change about a replay: overrides of the document's settings, the
/// id source and which records are written.
public struct RunOptions: Sendable, Equatable {
    /// Seed of the deterministic instrument/stream/playback ids.
    public var seed: UInt64 = 0
    /// Random UUIDs like upstream instead of seeded ones.
    public var randomIds = false
    public var hub: HubKind?
    public var metrics: Bool?
    public var pingInterval: Int?
    public var until: Int?
    /// Epoch milliseconds of t=0.
    public var startTime: Int?
    public var filter = RecordFilter()

    public init() {}

    /// The document's settings with these overrides applied.
    public func applied(to settings: TimelineSettings) -> TimelineSettings {
        var settings = settings
        if let hub { settings.hub = hub }
        if let metrics { settings.metrics = metrics }
        if let pingInterval { settings.pingInterval = pingInterval }
        if let until { settings.until = until }
        if let startTime { settings.startTime = startTime }
        return settings
    }

    public func makeIdentifiers() -> any IdentifierGenerator {
        randomIds ? RandomUUIDGenerator() : SeededUUIDGenerator(seed: seed)
    }
}

extension Replayer {
    /// Replays a timeline as JSON Lines into a sink: the `avtreplay run` job.
    /// Returns the engine's warnings; throws `OutputError` if the output could not be written and
    /// `ReplayError` for a hand-built timeline that is out of order.
    @discardableResult
    public static func replayToJSONLines(_ timeline: Timeline, options: RunOptions, sink: ByteSink) throws
        -> [Instrument.Warning]
    {
        let settings = options.applied(to: timeline.settings)
        let backend = JSONLinesBackend(
            sink: sink,
            encoder: RecordEncoder(trackerNames: settings.trackers.map(\.name), startTime: settings.startTime),
            filter: options.filter)
        let replayer = Replayer(settings: settings, backend: backend, identifiers: options.makeIdentifiers())
        var warnings: [Instrument.Warning] = []
        replayer.instrument.onWarning = { warnings.append($0) }
        for step in timeline.steps {
            guard try replayer.play(step) else { break }
        }
        replayer.finish()
        if let error = backend.writeError { throw error }
        try sink.close()
        return warnings
    }
}
