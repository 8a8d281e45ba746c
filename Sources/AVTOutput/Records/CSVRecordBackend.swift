import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline

/// `--format csv`: one row per record, in delivery order, under the header
/// `type,t,time,action,tracker,name,metricType,value,attributes.<name>…` (with `session` after
/// `type` when the encoder labels sessions). Event rows leave name/metricType/value empty, metric
/// rows action/tracker; there is one `attributes.<name>` column per attribute any event of the
/// replay carried, sorted by UTF-8 bytes, empty where an event lacks it.
///
/// Cells are typed as in CSV timelines (`CSVField`): `true` is a boolean, `"""true"""` the string;
/// `1` an integer, `1.0` a double. The attribute columns are known only at the end, so rows wait
/// in a spool (memory up to a threshold, then an unlinked temporary file) and are written, after
/// the header, by `endOfService()`. Write errors are kept in `writeError`, as JSONLinesBackend does.
package final class CSVRecordBackend: RecordBackend {
    package let encoder: RecordEncoder
    package let filter: RecordFilter
    package private(set) var writeError: OutputError?
    private let sink: ByteSink
    private let spool: CSVSpool
    private var finished = false

    /// The fixed columns, before the attribute columns.
    package static let fixedColumns = ["type", "t", "time", "action", "tracker", "name", "metricType", "value"]

    package convenience init(
        sink: ByteSink, encoder: RecordEncoder, filter: RecordFilter = RecordFilter(),
        maxColumns: Int = InputLimits().maxColumns
    ) {
        self.init(sink: sink, encoder: encoder, filter: filter, spillThreshold: 1 << 20, maxColumns: maxColumns)
    }

    /// - Parameters:
    ///   - spillThreshold: bytes of rows kept in memory before they go to a temporary file.
    ///   - maxColumns: attribute columns allowed; past it, the run ends as bad input.
    package init(
        sink: ByteSink, encoder: RecordEncoder, filter: RecordFilter, spillThreshold: Int,
        maxColumns: Int = InputLimits().maxColumns
    ) {
        self.sink = sink
        self.encoder = encoder
        self.filter = filter
        self.spool = CSVSpool(spillThreshold: spillThreshold, maxColumns: maxColumns)
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics, writeError == nil, !finished else { return }
        spool.beginRow()
        header(type: "metric", t: metric.timestamp)
        spool.bytes.raw(",,,")  // action, tracker
        CSVField.appendField(string: metric.name, to: &spool.bytes)
        spool.bytes.raw(UInt8(ascii: ","))
        spool.bytes.raw(metric.kind == .counter ? "counter" : "gauge")
        spool.bytes.raw(UInt8(ascii: ","))
        switch metric.value {
        case .int(let v): spool.bytes.int(v)
        case .double(let v): spool.bytes.double(v)
        }
        spool.endFixed()
        endRow()
    }

    package func sendEvent(_ event: Event) {
        guard filter.events, writeError == nil, !finished else { return }
        spool.beginRow()
        header(type: "event", t: event.timestamp)
        spool.bytes.raw(UInt8(ascii: ","))
        CSVField.appendField(string: event.action.name, to: &spool.bytes)
        spool.bytes.raw(UInt8(ascii: ","))
        if let id = event.trackerId, encoder.trackerNames.indices.contains(id) {
            CSVField.appendField(string: encoder.trackerNames[id], to: &spool.bytes)
        } else {
            spool.bytes.null()
        }
        spool.bytes.raw(",,,")  // name, metricType, value
        spool.endFixed()
        event.attributes.forEachEntry { key, value in
            spool.beginKeyed(key.index)
            CSVField.appendField(value, to: &spool.bytes)
            spool.endKeyed()
        }
        endRow()
    }

    /// Writes the header and every row.
    package func endOfService() {
        guard !finished else { return }
        finished = true
        guard writeError == nil else { return }
        let names = Attribute.names(fromIndex: 0)
        let order = spool.usedIDs.sorted { names[Int($0)].utf8.lexicographicallyPrecedes(names[Int($1)].utf8) }
        var head: [UInt8] = []
        var columns = Self.fixedColumns
        if encoder.session != nil { columns.insert("session", at: 1) }
        for (i, column) in columns.enumerated() {
            if i > 0 { head.append(0x2C) }
            CSVField.appendRaw(text: column, to: &head)
        }
        for id in order {
            head.append(0x2C)
            CSVField.appendRaw(text: "attributes." + names[Int(id)], to: &head)
        }
        head.append(0x0A)
        do {
            try spool.finish(head: head, order: order, to: sink)
        } catch {
            writeError = error
        }
    }

    /// `type,[session,]t,time` (no trailing comma).
    private func header(type: StaticString, t: Int) {
        spool.bytes.raw(type)
        if let session = encoder.session {
            spool.bytes.raw(UInt8(ascii: ","))
            CSVField.appendField(string: session, to: &spool.bytes)
        }
        spool.bytes.raw(UInt8(ascii: ","))
        spool.bytes.int(t)
        spool.bytes.raw(UInt8(ascii: ","))
        ISO8601.append(epochMilliseconds: encoder.startTime + t, to: &spool.bytes.bytes)
    }

    private func endRow() {
        do {
            try spool.endRow()
        } catch {
            writeError = error
        }
    }
}
