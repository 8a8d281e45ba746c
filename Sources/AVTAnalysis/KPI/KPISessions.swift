import AVTReplay
import AVTTimeline
import AVTTrackers

/// The sessions `kpi` reports on: timelines replayed, or event logs as `run` writes them.
package enum KPISessions {
    /// Every input (directories expanded), in order.
    package static func load(
        _ inputs: [String], fromEvents: Bool, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec] = [],
        options: RunOptions = RunOptions()
    ) throws -> [SessionKPIs] {
        var sessions: [SessionKPIs] = []
        for path in try SessionDiscovery.expand(inputs, keepOutputs: fromEvents ? .always : .never) {
            sessions +=
                fromEvents
                ? try eventLog(path) : [try replay(path, format: format, csvTrackers: csvTrackers, options: options)]
        }
        return sessions
    }

    /// How a path is named as a session: standard input as `<stdin>`.
    static func name(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    package static func replay(
        _ path: String, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec] = [],
        options: RunOptions = RunOptions()
    ) throws -> SessionKPIs {
        // Keeps the AVMetrics events on the way for the startup breakdown (same single pass).
        var source = AVMetricsRecordingSource(
            try TimelineReader.open(path, format: format, csvTrackers: csvTrackers, limits: options.inputLimits))
        let backend = KPIBackend(session: name(path))
        _ = try Replayer.replay(&source, options: options, backend: backend)
        var kpis = backend.kpis
        kpis.avmetrics = source.log
        return kpis
    }

    /// A log from a multi-session run holds several sessions (its `session` field).
    package static func eventLog(_ path: String) throws -> [SessionKPIs] {
        var sessions: [SessionKPIs] = []
        for record in try OutputLog.read(path: path) {
            let name = record.session ?? name(path)
            if sessions.last?.session != name { sessions.append(SessionKPIs(session: name)) }
            sessions[sessions.count - 1].add(KPIObservation(record: record))
        }
        return sessions
    }
}
