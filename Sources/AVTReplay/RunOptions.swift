import AVTCore
import AVTOutput
import AVTTimeline

/// What the command line may change about a replay: overrides of the document's settings, the
/// id source and which records are written.
public struct RunOptions: Sendable, Equatable {
    /// Seed of the deterministic instrument/stream/playback ids.
    public var seed: UInt64 = 0
    /// Random UUIDs like upstream instead of seeded ones.
    public var randomIds = false
    /// Overrides the document's hub.
    public var hub: HubKind?
    /// Overrides whether the metricalc runs.
    public var metrics: Bool?
    /// Overrides the ping interval (ms; 0 for none).
    public var pingInterval: Int?
    /// Overrides where the replay ends (ms).
    public var until: Int?
    /// Epoch milliseconds of t=0.
    public var startTime: Int?
    /// Epoch milliseconds at which the replay's last instant lands (`--end-time`): each session
    /// gets the start time that puts it there (see `placingEnd`).
    package var endTime: Int?
    /// Which records are written.
    public var filter = RecordFilter()
    /// Longest virtual time (ms) a replay may reach. A few bytes of timeline can ask for 2^53 ms,
    /// which at one ping per 30 s is 3·10^11 records: the limit ends such a replay with a bad-input
    /// error instead of filling the disk. A year covers any session and long generated timelines
    /// (a million steps 3 s apart span 36 days); at the default ping interval it still bounds a
    /// two-step timeline to about 10^6 pings, a second of work.
    public var maxDuration = RunOptions.defaultMaxDuration
    /// Bounds on lines, names, keys and columns of the inputs (and of a CSV output's columns).
    public var inputLimits = InputLimits()
    /// Most records one session may produce (events and metrics): with `maxDuration` alone a
    /// year of 100 ms pings is 3·10^8 records. Ten million is far beyond any recorded session
    /// (a day of 1 s pings is 86,400) and a few GB of JSON Lines.
    public var maxRecords = RunOptions.defaultMaxRecords
    /// Shortest ping interval (ms) a timeline may ask for; 0 (no pings) is always allowed. Pings
    /// are most of what a long replay writes, so a 1 ms interval multiplies it by 30,000.
    public var minPingInterval = RunOptions.defaultMinPingInterval
    /// Most bytes of records one command writes (all sessions of a `run` together, each replay of
    /// a `check` or a `report`). `maxRecords` bounds the count of records, not their size: every event repeats
    /// every attribute set so far, so a few MB of timeline can ask for terabytes. One GiB holds
    /// about a million records of a real session, far more than a CI job compares.
    package var maxOutputBytes = RunOptions.defaultMaxOutputBytes

    /// Where a player log's warnings go (the command line's handler prints them).
    package var warnings = WarningHandler.silent

    /// 366 days of virtual time, in ms.
    public static let defaultMaxDuration = 366 * 24 * 3_600_000
    /// `maxRecords`' default.
    public static let defaultMaxRecords = 10_000_000
    /// `minPingInterval`'s default (ms).
    public static let defaultMinPingInterval = 100
    package static let defaultMaxOutputBytes = 1 << 30

    /// `avtreplay run`'s defaults.
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

    /// These options for one session, with `endTime` turned into the start time that puts the
    /// session's last instant there: its `until` (the document's, or `--until`), else the time of
    /// its last step, which `reopen` reads the input once more to learn. Standard input cannot
    /// be read twice, so there it takes an `until`.
    package func placingEnd(
        of path: String, settings: TimelineSettings, reopen: () throws -> any TimelineSource
    ) throws -> RunOptions {
        guard let endTime, startTime == nil else { return self }
        var last = 0
        if let until = applied(to: settings).until {
            last = until
        } else if path == "-" {
            throw UsageError(
                "--end-time needs the timeline's last instant, and standard input is read only once: give the "
                    + "timeline an \"until\" or add --until MS, use a file, or use --start-time instead")
        } else {
            var source = try reopen()
            while let step = try source.nextStep() { last = step.t }
        }
        var placed = self
        placed.startTime = endTime - last
        return placed
    }

    /// The error for a replay that would run past `maxDuration`: names the limit and its flag.
    func tooLong(_ file: String, path: String, t: Int, at origin: StepOrigin? = nil) -> TimelineError {
        TimelineError(
            file: file, location: origin?.location, path: path,
            message:
                "\(t) ms is past the replay's limit of \(maxDuration) ms (--max-duration; default 366 days); "
                + "raise it with --max-duration <ms>")
    }

    /// Seeded ids from `seed`, or random UUIDs with `randomIds`.
    public func makeIdentifiers() -> any IdentifierGenerator {
        randomIds ? RandomUUIDGenerator() : SeededUUIDGenerator(seed: seed)
    }
}

extension Replayer {
    /// Replays a streamed timeline into a backend: the `avtreplay run` job for one session.
    /// Throws `TimelineError` for bad input (found while streaming) and `ReplayError` for
    /// hand-built steps out of order. `played` sees each step once it is played, `onStep` the
    /// count of steps played so far.
    public static func replay(
        _ source: inout some TimelineSource, options: RunOptions, backend: Backend,
        components: ReplayComponents = .standard, stop: StopRequest? = nil, output: OutputByteLimit? = nil,
        onStep: (Int) -> Void = { _ in }, prepare: (Replayer) -> Void = { _ in }, played: (Step) -> Void = { _ in }
    ) throws -> ReplaySummary {
        let settings = options.applied(to: source.settings)
        if settings.pingInterval > 0, settings.pingInterval < options.minPingInterval {
            throw TimelineError(
                file: source.name, path: "pingInterval",
                message:
                    "\(settings.pingInterval) ms is below the shortest ping interval of \(options.minPingInterval) ms "
                    + "(--min-ping-interval; default \(RunOptions.defaultMinPingInterval)); "
                    + "lower it with --min-ping-interval <ms>")
        }
        let records = RecordLimit(backend, limit: options.maxRecords)
        let replayer = Replayer(
            settings: settings, backend: records, identifiers: options.makeIdentifiers(), components: components)
        prepare(replayer)
        var summary = ReplaySummary()
        replayer.instrument.onWarning = { summary.warnings.append($0) }
        replayer.instrument.isStopRequested = {
            records.isExceeded || output?.isExceeded == true || stop?.isRequested == true
        }
        let until = replayer.settings.until
        if let until, until > options.maxDuration {
            throw options.tooLong(source.name, path: "until", t: until)
        }
        while let step = try nextStep(&source, stop: stop) {
            if let stop, stop.isRequested {
                summary.interrupted = true
                break
            }
            // Checked before the clock advances, so no timer fires towards an excessive t.
            if step.t > options.maxDuration, until.map({ step.t <= $0 }) ?? true {
                throw options.tooLong(source.name, path: "steps[\(step.origin.index)].t", t: step.t, at: step.origin)
            }
            let wasPlayed = try replayer.play(step)
            if records.isExceeded { throw records.error(source.name, at: step.origin) }
            if let output, output.isExceeded { throw output.error(source.name, at: step.origin) }
            guard wasPlayed else { break }
            summary.steps += 1
            played(step)
            onStep(summary.steps)
        }
        // A stop may also have come while the timers before a step fired (`play` returned false).
        if stop?.isRequested == true { summary.interrupted = true }
        if summary.interrupted { replayer.stop() } else { replayer.finish() }
        // The pings after the last step (up to `until`) count too.
        if records.isExceeded { throw records.error(source.name, at: nil) }
        if let output, output.isExceeded { throw output.error(source.name, at: nil) }
        return summary
    }

    /// The source's next step. A read that the stop request cancelled (Ctrl-C wakes a read
    /// waiting on its input) ends the steps: the replay is interrupted, not failed, so every
    /// component still ends its service and the batches on their way are settled.
    private static func nextStep(_ source: inout some TimelineSource, stop: StopRequest?) throws(TimelineError)
        -> Step?
    {
        do {
            return try source.nextStep()
        } catch {
            if stop?.isRequested == true { return nil }
            throw error
        }
    }

    /// Replays an in-memory timeline as JSON Lines into a sink.
    /// Throws `OutputError` if the output could not be written.
    @discardableResult
    public static func replayToJSONLines(_ timeline: Timeline, options: RunOptions, sink: ByteSink) throws
        -> [Instrument.Warning]
    {
        let settings = options.applied(to: timeline.settings)
        let backend = JSONLinesBackend(
            sink: sink,
            encoder: RecordEncoder(trackerNames: settings.trackers.map(\.name), startTime: settings.startTime),
            filter: options.filter)
        var source = DocumentSource(timeline, name: "timeline")
        let summary = try replay(&source, options: options, backend: backend)
        if let error = backend.writeError { throw error }
        try sink.close()
        return summary.warnings
    }
}
