import AVTFormats
import AVTOutput

/// One session's table or CSV rows, built a playback at a time as the replay folds each
/// playback that is over (`SessionHistory.foldsFinished`), then the rest at the end: the
/// session's output waits in a `LineSpool` (memory, then a temporary file), its totals are a
/// running sum. The text is `KPIReport.table`'s or `csvRows`' for the same session, byte for
/// byte.
struct KPISessionStream {
    private let csv: Bool
    private let definitions: KPIDefinitions
    private let names: [String]
    private let lines: LineSpool
    private(set) var pooled = PlaybackFigures()
    private(set) var playbacks = 0
    /// The session's name as a CSV field, once known.
    private var csvName = ""

    init(csv: Bool, definitions: KPIDefinitions) {
        self.csv = csv
        self.definitions = definitions
        names = KPIName.names(definitions)
        // A table has a line of headers and a line per KPI; the CSV one line of rows.
        lines = LineSpool(lines: csv ? 1 : names.count + 1)
    }

    /// One playback, in the order the playbacks began; returns its values (the aggregate's).
    mutating func add(id: String, figures: PlaybackFigures, session: String) throws -> [KPI] {
        let values = KPICalculator.values(figures, definitions, flags: true)
        pooled.merge(figures)
        if csv {
            if playbacks == 0 { csvName = KPIReport.quoted(session) }
            var row = ""
            KPIReport.csvRow(session: csvName, id, values, names: names, into: &row)
            try lines.append(row, to: 0)
        } else {
            try cells(header: header(id), values.aligned(names))
        }
        playbacks += 1
        return values
    }

    /// The session's whole text, written through `emit` in pieces of up to about 1 MiB (one
    /// write for a small session); `session` gives its name, its AVMetrics breakdown and the
    /// playbacks not folded (already added by then).
    func finish(_ session: SessionKPIs, emit: ([UInt8]) throws -> Void) throws {
        var out: [UInt8] = []
        func put(_ bytes: [UInt8]) throws {
            out += bytes
            if out.count >= LineSpool.inMemory {
                try emit(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        let totals = KPICalculator.values(pooled, definitions, flags: false)
        if csv {
            try lines.forEachChunk(0, put)
            var row = ""
            KPIReport.csvRow(session: KPIReport.quoted(session.session), "(total)", totals, names: names, into: &row)
            try put(Array(row.utf8))
            try emit(out)
            return
        }
        var copy = self
        try copy.cells(header: "total", totals.aligned(names))
        var head = "\(TerminalText.escaped(session.session))  (definitions: \(definitions.rawValue))\n"
        head += KPIReport.pad("KPI (unit)", 34)
        try put(Array(head.utf8))
        try lines.forEachChunk(0, put)
        try put([UInt8(ascii: "\n")])
        for (n, name) in names.enumerated() {
            try put(Array(KPIReport.pad(KPIName.labelled(name), 34).utf8))
            try lines.forEachChunk(n + 1, put)
            try put([UInt8(ascii: "\n")])
        }
        var tail = "\n"
        if let log = session.avmetrics {
            tail += AVMetricsKPIReport.table(log, totals: totals)
        } else if let rendered = session.avmetricsRendered {
            tail += rendered.table
        }
        try put(Array(tail.utf8))
        try emit(out)
    }

    /// A playback's column header: its id's first 8 characters (the totals' is `total`).
    private func header(_ id: String) -> String {
        id == "total" ? "total" : TerminalText.escaped(String(id.prefix(8))) + "…"
    }

    /// A column of the table. Columns are 14 wide: a replayed playback's id is hexadecimal, so
    /// its header is 9 characters (`KPIReport.table` widens them only for a longer header).
    private mutating func cells(header: String, _ values: [KPIValue?]) throws {
        let separator = playbacks > 0 ? " " : ""
        try lines.append(separator + KPIReport.pad(header, 14, right: true), to: 0)
        for (n, value) in values.enumerated() {
            try lines.append(to: n + 1) { KPITableCell.append(value, width: 14, separated: playbacks > 0, to: &$0) }
        }
    }
}
