import AVTCore
import AVTFormats
import AVTJSON

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

    package convenience init(sink: ByteSink, encoder: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.init(sink: sink, encoder: encoder, filter: filter, spillThreshold: 1 << 20)
    }

    /// - Parameter spillThreshold: bytes of rows kept in memory before they go to a temporary file.
    package init(sink: ByteSink, encoder: RecordEncoder, filter: RecordFilter, spillThreshold: Int) {
        self.sink = sink
        self.encoder = encoder
        self.filter = filter
        self.spool = CSVSpool(spillThreshold: spillThreshold)
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

/// Joins the CSV tables that several `CSVRecordBackend`s write one after another into one sink
/// (a run of several sessions, each with its own backend) into one table: a single header with
/// the union of their columns (the fixed ones in their usual order, then the attribute columns
/// sorted), then every row in the order written, its cells moved to the merged columns.
///
/// Wrap the run's sink in it when the format is CSV and several sessions share the output;
/// `close()` writes the merged table to `target` and closes it. Bytes may arrive in chunks of any
/// size (SessionRunner copies finished sessions from temporary files). Rows wait in a spool, so
/// memory stays bounded.
package final class CSVRecordMergingSink: ByteSink {
    private let target: ByteSink
    private let spool: CSVSpool
    private var pending: [UInt8] = []
    private var scanned = 0
    private var inQuotes = false
    private var columnIDs: [String: Int32] = [:]
    private var names: [String] = []
    /// The current table's columns (after `type`) as merged column ids.
    private var mapping: [Int32]?
    private var closed = false

    package init(target: ByteSink, spillThreshold: Int = 1 << 20) {
        self.target = target
        self.spool = CSVSpool(spillThreshold: spillThreshold)
    }

    package func write(_ bytes: [UInt8]) throws(OutputError) {
        pending.append(contentsOf: bytes)
        var recordStart = 0
        var i = scanned
        while i < pending.count {
            let byte = pending[i]
            if byte == 0x22 {
                inQuotes.toggle()
            } else if byte == 0x0A, !inQuotes {
                try record(pending[recordStart..<i])
                recordStart = i + 1
            }
            i += 1
        }
        pending.removeFirst(recordStart)
        scanned = pending.count
    }

    package func close() throws(OutputError) {
        guard !closed else { return }
        closed = true
        if mapping != nil {
            let fixed = ["session"] + CSVRecordBackend.fixedColumns.dropFirst()
            let order = names.indices.sorted { a, b in
                let (ra, rb) = (fixed.firstIndex(of: names[a]) ?? fixed.count, fixed.firstIndex(of: names[b]) ?? fixed.count)
                return ra != rb ? ra < rb : names[a].utf8.lexicographicallyPrecedes(names[b].utf8)
            }
            var head = Array("type".utf8)
            for id in order {
                head.append(0x2C)
                CSVField.appendRaw(text: names[id], to: &head)
            }
            head.append(0x0A)
            try spool.finish(head: head, order: order.map { Int32($0) }, to: target)
        }
        try target.close()
    }

    /// One record's fields, still quoted as written.
    private func fields(_ record: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var quoted = false
        var start = record.startIndex
        for i in record.indices {
            if record[i] == 0x22 {
                quoted.toggle()
            } else if record[i] == 0x2C, !quoted {
                result.append(record[start..<i])
                start = i + 1
            }
        }
        result.append(record[start...])
        return result
    }

    private func record(_ record: ArraySlice<UInt8>) throws(OutputError) {
        let fields = fields(record.last == 0x0D ? record.dropLast() : record)
        if fields[0].elementsEqual("type".utf8) {
            mapping = fields.dropFirst().map { id(for: Self.unquote($0)) }
            return
        }
        guard let mapping, fields.count == mapping.count + 1 else {
            throw OutputError(path: "CSV records", message: "a row does not match its table's header", isBrokenPipe: false)
        }
        spool.beginRow()
        spool.bytes.bytes.append(contentsOf: fields[0])
        spool.endFixed()
        for (column, field) in zip(mapping, fields.dropFirst()) where !field.isEmpty {
            spool.beginKeyed(column)
            spool.bytes.bytes.append(contentsOf: field)
            spool.endKeyed()
        }
        try spool.endRow()
    }

    private func id(for name: String) -> Int32 {
        if let id = columnIDs[name] { return id }
        let id = Int32(names.count)
        names.append(name)
        columnIDs[name] = id
        return id
    }

    private static func unquote(_ field: ArraySlice<UInt8>) -> String {
        guard field.first == 0x22, field.count >= 2 else { return String(decoding: field, as: UTF8.self) }
        var bytes: [UInt8] = []
        var i = field.startIndex + 1
        while i < field.endIndex - 1 {
            bytes.append(field[i])
            i += field[i] == 0x22 ? 2 : 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
