import AVTOutput

/// `avtreplay kpi`'s output, a session at a time: each session's text (its table, its CSV rows,
/// its JSON object) is ready as soon as the session is added, and the caller writes it at once,
/// so an interrupted `kpi` has printed every session it finished. Of a session, only what the
/// aggregate needs is kept (`KPIAggregator`: the pooled sums and a number per playback and KPI).
/// The bytes are the same as `KPIReport`'s for the same sessions.
package struct KPIStreamWriter {
    /// What `kpi --format` prints.
    package enum Format: Sendable {
        case table, json, csv
    }

    private let format: Format
    private let definitions: KPIDefinitions
    private let aggregate: Bool
    private let states: Bool
    private var json: KPIJSONWriter
    private var aggregator: KPIAggregator

    /// `states`: each table is followed by its playbacks' state histories (`--states`).
    package init(format: Format, definitions: KPIDefinitions, aggregate: Bool, states: Bool = false) {
        self.format = format
        self.definitions = definitions
        self.aggregate = aggregate
        self.states = states
        json = KPIJSONWriter(definitions: definitions, aggregate: aggregate, spills: true)
        aggregator = KPIAggregator(definitions: definitions, spills: true)
    }

    /// What comes before the first session: the CSV header, the JSON document's opening.
    package mutating func start() -> [UInt8] {
        switch format {
        case .table: return []
        case .csv: return Array(KPIReport.csvHeader(definitions: definitions).utf8)
        case .json: return json.drain()
        }
    }

    /// A session's text; its histories are not kept.
    package mutating func add(_ session: SessionKPIs) -> [UInt8] {
        switch format {
        case .json:
            json.add(session)
            return json.drain()
        case .table:
            if aggregate { aggregator.add(session) }
            var text = KPIReport.table(session, definitions: definitions)
            if states { text += StateHistoryTable.render(session) }
            return Array(text.utf8)
        case .csv:
            if aggregate { aggregator.add(session) }
            return Array(KPIReport.csvRows(session, definitions: definitions).utf8)
        }
    }

    /// What comes after the last session: the aggregate when asked for, the JSON's closing.
    /// Throws only when the aggregate's spilled values cannot be read back.
    package mutating func finish() throws(OutputError) -> [UInt8] {
        switch format {
        case .json: return try json.finishStreaming()
        case .table:
            guard aggregate else { return [] }
            let columns = try aggregator.columnsByStatistic()
            return Array(
                KPIReport.aggregateTable(columns, playbacks: aggregator.playbacks, definitions: definitions).utf8)
        case .csv:
            guard aggregate else { return [] }
            return Array(KPIReport.csvAggregate(try aggregator.columnsByStatistic(), definitions: definitions).utf8)
        }
    }
}
