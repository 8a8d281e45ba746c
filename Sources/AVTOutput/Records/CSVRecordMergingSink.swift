import AVTCore
import AVTFormats
import AVTJSON
import AVTTimeline

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

    /// - Parameter maxColumns: attribute columns allowed in the merged table (the fixed ones
    ///   come on top).
    package init(target: ByteSink, spillThreshold: Int = 1 << 20, maxColumns: Int = InputLimits().maxColumns) {
        self.target = target
        self.spool = CSVSpool(
            spillThreshold: spillThreshold, maxColumns: maxColumns + CSVRecordBackend.fixedColumns.count + 1)
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
                let (ra, rb) = (
                    fixed.firstIndex(of: names[a]) ?? fixed.count, fixed.firstIndex(of: names[b]) ?? fixed.count
                )
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
            throw OutputError(
                path: "CSV records", message: "a row does not match its table's header", isBrokenPipe: false)
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
