import AVTFormats
import AVTJSON
import AVTKPI
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers

/// Turns `report`'s inputs into sessions of records. Timelines are replayed exactly as `run`
/// would (default flags, seed 0) and the output is read back, so a timeline and the event log it
/// produces give the same timeline; their KPIs are `kpi`'s, from the trackers before the hub.
/// Event logs are read the way `kpi --from-events` reads them.
package enum ReportInput {
    /// Files as given, directories expanded as `run` expands them (sorted, golden files and output
    /// records skipped); a directory without timelines is read for its event logs.
    /// Each file is an event log when `fromEvents` is set or when its first non-blank line is a
    /// record (an object with `"type": "event"` or `"metric"`); otherwise it is a timeline.
    /// `format` (`--input-format`) reads every input as a timeline of that format.
    /// A timeline whose trackers are all `netstats` (pre-call network statistics) is not a
    /// playback: it is left out, and `skipped` is told why.
    /// A player log's reader warns (on standard error) once per input: the replay that makes the
    /// records speaks, the reads for the KPIs and the startup breakdown are silent.
    package static func load(
        _ paths: [String], fromEvents: Bool, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec],
        options: RunOptions = RunOptions(), skipped: (String) -> Void = { _ in }
    ) throws -> [SessionRecords] {
        var sessions: [SessionRecords] = []
        for path in try SessionDiscovery.expand(paths, keepOutputs: fromEvents ? .always : .whenNoTimelines) {
            let input = try ByteInput(path: path)
            input.limits = options.inputLimits
            if try fromEvents || format == nil && looksLikeEventLog(input) {
                sessions += try eventLog(input)
            } else {
                let probe = try TimelineReader.open(
                    path, format: format, csvTrackers: csvTrackers, limits: options.inputLimits, warn: { _ in })
                if isNetworkStatistics(probe.settings) {
                    skipped(
                        "\(input.name): pre-call network statistics (netstats trackers), not a playback: "
                            + "left out of the report (see `avtreplay precall`)")
                    continue
                }
                let bytes = try GoldenFiles.produce(path, options: options, csvTrackers: csvTrackers, format: format)
                var replayed = try eventLog(ByteInput(bytes: bytes, name: input.name))
                let waterfall = try startupWaterfall(probe)
                // The KPIs as `kpi` computes them: a second replay that follows the trackers.
                let kpis = try KPISessions.replayHistory(
                    path, format: format, csvTrackers: csvTrackers, options: options, keepSpans: true, warn: { _ in }
                ).0
                // One timeline is one session, named by its path.
                for index in replayed.indices {
                    replayed[index].name = input.name
                    replayed[index].startupWaterfall = waterfall
                    replayed[index].kpis = kpis
                }
                sessions += replayed
            }
        }
        return sessions
    }

    /// The startup breakdown of the timeline's first `avmetrics` tracker as waterfall rows (the
    /// same breakdown `kpi` prints), read in one streamed pass over its steps.
    static func startupWaterfall(_ timeline: any TimelineSource) throws(TimelineError) -> [WaterfallRequest] {
        var source = AVMetricsRecordingSource(timeline)
        guard source.log != nil else { return [] }
        while try source.nextStep() != nil {}
        return source.log.flatMap(StartupBreakdown.init(log:))?.waterfallRequests ?? []
    }

    /// Pre-call network statistics: every tracker is a `netstats` one (`avtreplay precall`).
    static func isNetworkStatistics(_ settings: TimelineSettings) -> Bool {
        !settings.trackers.isEmpty && settings.trackers.allSatisfy { $0.kind == .netstats }
    }

    /// Records grouped into sessions: a new session starts where the `session` field changes.
    package static func eventLog(_ input: ByteInput) throws(TimelineError) -> [SessionRecords] {
        var lines = LineReader(input)
        var sessions: [SessionRecords] = []
        let file = input.name
        while let (record, start) = try lines.nextNonBlankLine({
            (bytes, line) throws(TimelineError) -> (OutputRecord, Int?) in
            let record = try OutputLog.parse(bytes, line: line, file: file)
            let isFirst = sessions.last.map { $0.name != (record.session ?? file) } ?? true
            return (record, isFirst ? startTime(of: bytes, t: record.t) : nil)
        }) {
            let name = record.session ?? file
            if sessions.last?.name != name {
                sessions.append(SessionRecords(name: name, startEpochMilliseconds: start, records: []))
            }
            sessions[sessions.count - 1].records.append(record)
        }
        return sessions
    }

    /// `time − t` of a record line, in epoch ms.
    static func startTime(of bytes: UnsafeBufferPointer<UInt8>, t: Int?) -> Int? {
        guard let node = try? JSONParser.parse(bytes), case .object(let members) = node.value,
            case .string(let time)? = members.first(where: { $0.key == "time" })?.node.value,
            let epoch = ISO8601.parse(time)
        else { return nil }
        return epoch - (t ?? 0)
    }

    /// Whether the first non-blank line is an output record rather than a timeline's first line.
    static func looksLikeEventLog(_ input: ByteInput) throws(TimelineError) -> Bool {
        EventLogSniffer.isEventLog(try input.peek(1 << 16))
    }
}

extension ReportInput {
    package static func isDirectory(_ path: String) -> Bool { SessionDiscovery.isDirectory(path) }

    /// A directory or several sessions get the overview page first.
    package static func wantsOverview(sessions: Int, inputs: [String]) -> Bool {
        sessions > 1 || inputs.contains { $0 != "-" && isDirectory($0) }
    }
}
