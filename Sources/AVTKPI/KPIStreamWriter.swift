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
        /// `KPIPartialWriter`'s lines, for `kpi --merge`.
        case partial
    }

    private let format: Format
    private let definitions: KPIDefinitions
    private let aggregate: Bool
    private let states: Bool
    private var json: KPIJSONWriter
    private let partial: KPIPartialWriter
    private var aggregator: KPIAggregator
    /// The session whose playbacks are being folded in (`playback`), and where the aggregate
    /// stood before it.
    private var open: (stream: KPISessionStream, mark: (playbacks: Int, counts: [Int]))?
    /// An error from the temporary files while folding (a full disk): thrown at the session's end.
    private var failure: (any Error)?

    /// `states`: each table is followed by its playbacks' state histories (`--states`).
    package init(format: Format, definitions: KPIDefinitions, aggregate: Bool, states: Bool = false) {
        self.format = format
        self.definitions = definitions
        self.aggregate = aggregate
        self.states = states
        json = KPIJSONWriter(definitions: definitions, aggregate: aggregate, spills: true)
        partial = KPIPartialWriter(definitions: definitions)
        aggregator = KPIAggregator(definitions: definitions, spills: true)
    }

    /// What comes before the first session: the CSV header, the JSON document's opening.
    package mutating func start() -> [UInt8] {
        switch format {
        case .table: return []
        case .csv: return Array(KPIReport.csvHeader(definitions: definitions).utf8)
        case .json: return json.drain()
        case .partial: return partial.header()
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
        case .partial: return partial.line(session)
        }
    }

    /// Whether sessions are given a playback at a time (`playback`, then `finish(_:emit:)`): a
    /// table or CSV without state histories, whose KPIs need no spans.
    package var folds: Bool { (format == .table || format == .csv) && !states }

    /// A playback that is over, in the order the session's playbacks began, while the session is
    /// replayed: its column or row waits in a temporary file, its values go to the aggregate.
    package mutating func playback(id: String, figures: PlaybackFigures, session: String) {
        var current = open ?? (KPISessionStream(csv: format == .csv, definitions: definitions), aggregator.mark)
        // Taken out while it changes, so the session's figures are not copied per playback.
        open = nil
        do {
            let values = try current.stream.add(id: id, figures: figures, session: session)
            if aggregate { aggregator.add(values: values) }
        } catch {
            failure = failure ?? error
        }
        open = current
    }

    /// The session's end: `session` holds the playbacks not folded (and its name and AVMetrics
    /// breakdown); its whole text is written through `emit`.
    package mutating func finish(_ session: SessionKPIs, emit: ([UInt8]) throws -> Void) throws {
        for (n, id) in session.playbackIds.enumerated() {
            playback(id: id, figures: session.figures[n], session: session.session)
        }
        let stream = open?.stream ?? KPISessionStream(csv: format == .csv, definitions: definitions)
        open = nil
        if let failure {
            self.failure = nil
            throw failure
        }
        if aggregate { aggregator.add(pooled: stream.pooled) }
        try stream.finish(session, emit: emit)
    }

    /// The session being folded turned out bad (`--keep-going`) or was cut short: its playbacks
    /// leave the aggregate, its text is dropped.
    package mutating func abandon() {
        if let open { aggregator.rollBack(to: open.mark) }
        open = nil
        failure = nil
    }

    /// What comes after the last session: the aggregate when asked for, the JSON's closing.
    /// Throws only when the aggregate's spilled values cannot be read back.
    package mutating func finish() throws(OutputError) -> [UInt8] {
        switch format {
        case .json: return try json.finishStreaming()
        case .partial: return []
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
