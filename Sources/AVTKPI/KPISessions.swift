import AVTFormats
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers

/// The KPIs `avtreplay kpi` reports, from Swift: timelines replayed with a KPI calculator that
/// follows each tracker before the hub (every action it emitted, every observation it took), or
/// event logs as `run` writes them (`fromEvents`, what a plain `KPIBackend` also sees). The
/// command line calls these very functions, so the numbers are the same.
///
/// Each session's `SessionKPIs` gives every definition set's values per playback and in total;
/// `KPIReport` prints them (table, CSV, JSON, aggregates) as the command does.
public enum KPISessions {
    /// Every input (directories expanded, as `kpi` expands them), in order.
    /// - Parameters:
    ///   - fromEvents: the inputs are event logs (JSON Lines records), not timelines.
    ///   - format: every timeline's format; nil detects each one's.
    ///   - csvTrackers: trackers for CSV timelines that declare none.
    ///   - options: the replay's options (seed, limits, overrides).
    ///   - keepSpans: keep each playback's state history (`SessionKPIs.stateHistory`).
    ///   - warn: where a player log's warnings go (nowhere unless given).
    public static func load(
        _ inputs: [String], fromEvents: Bool = false, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec] = [],
        options: RunOptions = RunOptions(), keepSpans: Bool = false, warn: @escaping (String) -> Void = { _ in }
    ) throws -> [SessionKPIs] {
        var sessions: [SessionKPIs] = []
        try forEach(
            inputs, fromEvents: fromEvents, format: format, csvTrackers: csvTrackers, options: options,
            keepSpans: keepSpans, warn: warn
        ) {
            sessions.append($0)
        }
        return sessions
    }

    /// Every input's sessions handed to `body` one at a time, in order. `keepSpans`: each with its
    /// state histories, which the caller prints and drops before the next session is read, so a
    /// long recording's spans are in memory one session at a time. The other parameters are
    /// `load`'s.
    public static func forEach(
        _ inputs: [String], fromEvents: Bool = false, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec] = [],
        options: RunOptions = RunOptions(), keepSpans: Bool = false, warn: @escaping (String) -> Void = { _ in },
        _ body: (SessionKPIs) throws -> Void
    ) throws {
        try forEach(
            inputs, fromEvents: fromEvents, format: format, csvTrackers: csvTrackers, options: options,
            keepSpans: keepSpans, warn: warn, shard: nil, skipped: nil, stop: nil, folded: nil, steps: nil, body)
    }

    /// The same, for the command line: `--shard`'s sessions only (another shard's files are not
    /// opened), and with `skipped` (`--keep-going`) an input that is bad input goes there and the
    /// others go on; a session's KPIs are given only once it was read whole, so a bad one leaves
    /// nothing behind. With `stop` (Ctrl-C), the session under way when it is requested is
    /// dropped unfinished and no other is read: `body` sees whole sessions only. With `folded`,
    /// a replayed session's playbacks that are over go there as the replay goes (session, id,
    /// figures; see `SessionHistory.foldsFinished`) and `body` gets the others; a session that
    /// then fails or is cut short has had some of its playbacks given: the caller drops them.
    /// `steps` counts the steps replayed, for a progress line.
    package static func forEach(
        _ inputs: [String], fromEvents: Bool, format: TimelineFormat?, csvTrackers: [TrackerSpec], options: RunOptions,
        keepSpans: Bool, warn: @escaping (String) -> Void, shard: Shard?,
        skipped: ((String, TimelineError) -> Void)?, stop: StopRequest?,
        folded: ((String, String, PlaybackFigures) -> Void)?, steps: StepCounter?,
        _ body: (SessionKPIs) throws -> Void
    ) throws {
        let paths = try SessionDiscovery.expand(inputs, keepOutputs: fromEvents ? .always : .never, shard: shard)
        for path in paths {
            if stop?.isRequested == true { return }
            let sessions: [SessionKPIs]
            do {
                sessions = try read(
                    path, fromEvents: fromEvents, format: format, csvTrackers: csvTrackers, options: options,
                    keepSpans: keepSpans, warn: warn, stop: stop, folded: folded, steps: steps,
                    session: SessionDiscovery.name(of: path, inputs: inputs))
            } catch let error as TimelineError {
                // A read cut short by Ctrl-C is no bad input: the session is simply not finished.
                if stop?.isRequested == true { return }
                guard let skipped else { throw error }
                skipped(path, error)
                continue
            }
            if stop?.isRequested == true { return }
            for session in sessions { try body(session) }
        }
    }

    /// `forEach` with `jobs` inputs replayed at once (`KPISessionPool`), handed on in input order:
    /// the same sessions, whole (no folding), and the same warnings in the same order.
    package static func forEach(
        _ inputs: [String], fromEvents: Bool, format: TimelineFormat?, csvTrackers: [TrackerSpec], options: RunOptions,
        keepSpans: Bool, warn: (String) -> Void, shard: Shard?,
        skipped: ((String, TimelineError) -> Void)?, stop: StopRequest?, steps: StepCounter?, jobs: Int,
        _ body: (SessionKPIs) throws -> Void
    ) throws {
        let paths = try SessionDiscovery.expand(inputs, keepOutputs: fromEvents ? .always : .never, shard: shard)
        let pool = KPISessionPool(jobs: jobs) { path, said in
            try read(
                path, fromEvents: fromEvents, format: format, csvTrackers: csvTrackers, options: options,
                keepSpans: keepSpans, warn: said, stop: stop, steps: steps,
                session: SessionDiscovery.name(of: path, inputs: inputs))
        }
        try pool.forEach(paths, stop: stop, warn: warn) { path, error in
            // A read cut short by Ctrl-C is no bad input: the session is simply not finished.
            if stop?.isRequested == true { return }
            guard let skipped, let error = error as? TimelineError else { throw error }
            skipped(path, error)
        } _: { sessions in
            for session in sessions { try body(session) }
        }
    }

    /// One input's sessions: an event log's, or a timeline's replay named `session` (its path
    /// relative to the folder given; the path when nil).
    package static func read(
        _ path: String, fromEvents: Bool, format: TimelineFormat?, csvTrackers: [TrackerSpec], options: RunOptions,
        keepSpans: Bool, warn: @escaping (String) -> Void, stop: StopRequest?,
        folded: ((String, String, PlaybackFigures) -> Void)? = nil, steps: StepCounter? = nil, session: String? = nil
    ) throws -> [SessionKPIs] {
        if fromEvents { return try eventLog(path, keepSpans: keepSpans) }
        return [
            try replayHistory(
                path, format: format, csvTrackers: csvTrackers, options: options, keepSpans: keepSpans, warn: warn,
                stop: stop, folded: folded, steps: steps, session: session
            ).0
        ]
    }

    /// How a path is named as a session: standard input as `<stdin>`, control characters escaped.
    package static func name(_ path: String) -> String { path == "-" ? "<stdin>" : TerminalText.escaped(path) }

    /// One timeline's KPIs, replayed as `kpi` replays it. The parameters are `load`'s.
    public static func replay(
        _ path: String, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec] = [],
        options: RunOptions = RunOptions(), keepSpans: Bool = false, warn: @escaping (String) -> Void = { _ in }
    ) throws -> SessionKPIs {
        try replayHistory(
            path, format: format, csvTrackers: csvTrackers, options: options, keepSpans: keepSpans, warn: warn
        ).0
    }

    /// The KPIs of a timeline at hand (a `Timeline` value, a source of your own), named `session`.
    public static func replay(
        _ timeline: Timeline, session: String, options: RunOptions = RunOptions(), keepSpans: Bool = false
    ) throws -> SessionKPIs {
        var source = DocumentSource(timeline, name: session)
        return try replay(&source, session: session, options: options, keepSpans: keepSpans).0
    }

    /// The session's KPIs and history, from one replay that follows the trackers before the hub.
    package static func replayHistory(
        _ path: String, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec] = [],
        options: RunOptions = RunOptions(), keepSpans: Bool = false,
        warn: @escaping (String) -> Void = { _ in }, stop: StopRequest? = nil,
        folded: ((String, String, PlaybackFigures) -> Void)? = nil, steps: StepCounter? = nil, session: String? = nil
    ) throws -> (SessionKPIs, SessionHistory) {
        // Keeps the AVMetrics events on the way for the startup breakdown (same single pass).
        var source = AVMetricsRecordingSource(
            try TimelineReader.open(
                path, format: format, csvTrackers: csvTrackers, limits: options.inputLimits, warn: warn))
        var (kpis, history) = try replay(
            &source, session: name(session ?? path), options: options, keepSpans: keepSpans, stop: stop,
            folded: folded, steps: steps)
        kpis.avmetrics = source.log
        return (kpis, history)
    }

    /// Replays a timeline source with a KPI backend that follows its trackers before the hub.
    package static func replay(
        _ source: inout some TimelineSource, session: String, options: RunOptions = RunOptions(),
        keepSpans: Bool = false, stop: StopRequest? = nil, folded: ((String, String, PlaybackFigures) -> Void)? = nil,
        steps: StepCounter? = nil
    ) throws -> (SessionKPIs, SessionHistory) {
        var backend: KPIBackend?
        /// The playbacks folded so far, handed on after each step (none kept in the history).
        func handOn() {
            guard let folded, let backend else { return }
            for (id, figures) in backend.takeFolded() { folded(session, id, figures) }
        }
        let collector = DeferredBackend()
        // No KPI reads a metric, and the metricalc changes no event: it is left out.
        var options = options
        options.metrics = false
        var counted = StepCounter.Batch(steps)
        let summary = try Replayer.replay(
            &source, options: options, backend: collector, stop: stop,
            onStep: {
                handOn()
                counted.reached($0)
            },
            prepare: { replayer in
                // No KPI reads a custom attribute: events need not carry every one set so far.
                replayer.instrument.omitCustomAttributes()
                let kpi = KPIBackend(session: session, replayer: replayer, keepSpans: keepSpans)
                kpi.foldsFinished = folded != nil && !keepSpans
                backend = kpi
                collector.target = kpi
            },
            played: { step in
                if step.endsTracker { backend?.trackerEnded(step.tracker, at: step.t) }
            })
        counted.finish(summary.steps)
        guard let backend else { return (SessionKPIs(session: session), SessionHistory(session: session)) }
        // The playbacks folded by the pings after the last step and the end of the replay.
        handOn()
        return (backend.kpis, backend.sessionHistory)
    }

    /// The sessions of an event log (records as `avtreplay run` writes them), by what the hub
    /// delivered; a log from a multi-session run holds several sessions (its `session` field).
    public static func eventLog(_ path: String, keepSpans: Bool = false) throws -> [SessionKPIs] {
        var sessions: [(String, [OutputRecord])] = []
        for record in try OutputLog.read(path: path) {
            let name = record.session ?? name(path)
            if sessions.last?.0 != name { sessions.append((name, [])) }
            sessions[sessions.count - 1].1.append(record)
        }
        return sessions.map { SessionKPIs.fromRecords($0.0, $0.1, keepSpans: keepSpans) }
    }
}
