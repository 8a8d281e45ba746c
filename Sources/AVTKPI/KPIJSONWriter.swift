import AVTJSON
import AVTOutput

/// The JSON contract of `kpi --format json`, written one session at a time: `kpi` adds a session
/// as soon as it is replayed and drops its state history once written, so the spans of one
/// session are in memory, not those of every input. What the aggregate needs (each playback's
/// KPIs, the pooled figures) is all it keeps.
public struct KPIJSONWriter {
    private var w = JSONWriter()
    private let definitions: KPIDefinitions
    private let aggregate: Bool
    private var sessions = 0
    /// Each playback's KPIs (the statistics across playbacks) and every playback's figures
    /// added together (the pooled values), when aggregating.
    private var aggregator: KPIAggregator

    /// A document in one definition set's values; `aggregate` adds the pooled values and the
    /// statistics across playbacks.
    public init(definitions: KPIDefinitions, aggregate: Bool) {
        self.init(definitions: definitions, aggregate: aggregate, spills: false)
    }

    /// `spills`: the aggregate's values go to a temporary file past a few MiB (`KPIColumns`);
    /// then `finishStreaming` reads them back.
    package init(definitions: KPIDefinitions, aggregate: Bool, spills: Bool) {
        self.definitions = definitions
        self.aggregate = aggregate
        aggregator = KPIAggregator(definitions: definitions, spills: spills)
        w.raw("{\"definitions\":")
        w.string(definitions.rawValue)
        w.raw(",\"units\":{")
        for (n, name) in KPIName.names(definitions).enumerated() {
            if n > 0 { w.raw(",") }
            w.string(name)
            w.raw(":")
            w.string(KPIName.units[name] ?? "count")
        }
        w.raw("}")
        w.raw(",\"sessions\":[")
    }

    /// A session: its totals, its playbacks (each with its state history and format switches
    /// when the session kept them) and its AVMetrics breakdown.
    public mutating func add(_ session: SessionKPIs) {
        if sessions > 0 { w.raw(",") }
        sessions += 1
        w.raw("{\"session\":")
        w.string(session.session)
        w.raw(",\"totals\":")
        object(session.totals(definitions: definitions), playbackId: nil)
        w.raw(",\"playbacks\":[")
        let histories = session.histories.count == session.playbackIds.count ? session.histories : []
        for (m, id) in session.playbackIds.enumerated() {
            if m > 0 { w.raw(",") }
            let values = session.playback(id, definitions: definitions)
            if aggregate { aggregator.add(values: values) }
            object(values, playbackId: id, close: histories.isEmpty)
            if !histories.isEmpty {
                StateHistoryJSON.write(histories[m], end: session.end, into: &w)
                w.raw("}")
            }
        }
        w.raw("]")
        if aggregate { aggregator.add(pooled: session.pooled) }
        if let log = session.avmetrics {
            w.raw(",\"avmetrics\":")
            AVMetricsKPIReport.json(log, totals: session.totals(definitions: definitions), into: &w)
        } else if let rendered = session.avmetricsRendered {
            w.raw(",\"avmetrics\":")
            w.value(rendered.json)
        }
        w.raw("}")
    }

    /// The document, with the aggregate and pooled values when asked for.
    public mutating func finish() -> String {
        // A writer that does not spill reads nothing back: it cannot fail.
        let bytes = (try? finishStreaming()) ?? []
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes written since the last call, taken out of the writer: `kpi` writes each
    /// session's as soon as it is added, so the document is never whole in memory.
    package mutating func drain() -> [UInt8] {
        let bytes = w.bytes
        w = JSONWriter()
        return bytes
    }

    /// The rest of the document (what `drain` did not take), with the aggregate; throws only
    /// when spilled values cannot be read back.
    package mutating func finishStreaming() throws(OutputError) -> [UInt8] {
        w.raw("]")
        if aggregate {
            w.raw(",\"aggregate\":{")
            for (n, (name, stats)) in try aggregator.statistics().enumerated() {
                if n > 0 { w.raw(",") }
                w.string(name)
                w.raw(":{")
                for (m, (stat, value)) in stats.enumerated() {
                    if m > 0 { w.raw(",") }
                    w.string(stat)
                    w.raw(":")
                    KPIReport.number(value, into: &w)
                }
                w.raw("}")
            }
            w.raw("},\"pooled\":")
            object(aggregator.pooledValues, playbackId: nil)
        }
        w.raw("}\n")
        return drain()
    }

    /// `{"playbackId": id, KPI: value…}`, left open when `close` is false (the history follows).
    private mutating func object(_ values: [KPI], playbackId: String?, close: Bool = true) {
        w.raw("{")
        if let playbackId {
            w.raw("\"playbackId\":")
            w.string(playbackId)
        }
        for (n, kpi) in values.enumerated() {
            if n > 0 || playbackId != nil { w.raw(",") }
            w.string(kpi.name)
            w.raw(":")
            KPIReport.kpi(kpi.value, into: &w)
        }
        if close { w.raw("}") }
    }
}
