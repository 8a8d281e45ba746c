import AVTCore
import AVTJSON
import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Spooling rows whose columns are known only at the end

/// Rows of a CSV file whose keyed columns (attributes, `set.*` keys, …) are known only once every
/// row has been seen. Rows are kept in a compact form — the fixed cells, then (column id, cell)
/// pairs — in memory up to a threshold and then in an unlinked temporary file, so memory stays
/// bounded; `finish` writes the header and every row with the final columns.
///
/// Record layout: `u32 total | u32 fixedLength | fixed cells | (u32 id | u32 length | cell)*`.
package final class CSVSpool {
    /// The pending bytes; row builders append cells to it directly.
    var bytes = JSONWriter(capacity: 1 << 16)
    /// Column ids in the order first used.
    private(set) var usedIDs: [Int32] = []
    private var used: [Bool] = []
    private var file: SpoolFile?
    private let spillThreshold: Int
    /// Keyed columns allowed: every row carries every column, so the output grows as rows ×
    /// columns (a timeline with a new key per step would write gigabytes of commas).
    private let maxColumns: Int
    private var rowStart = 0
    private var lengthSlot = 0

    init(spillThreshold: Int = 1 << 20, maxColumns: Int = InputLimits().maxColumns) {
        self.spillThreshold = spillThreshold
        self.maxColumns = maxColumns
    }

    /// Starts a row; append its fixed cells (comma-separated, no line end) to `bytes` next.
    func beginRow() {
        rowStart = bytes.bytes.count
        bytes.bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0])
    }

    /// Ends the fixed cells of the row.
    func endFixed() {
        patch(at: rowStart + 4, UInt32(bytes.bytes.count - rowStart - 8))
    }

    /// Starts the cell of keyed column `id`; append its field text to `bytes` next.
    func beginKeyed(_ id: Int32) {
        let index = Int(id)
        if index >= used.count { used.append(contentsOf: repeatElement(false, count: index + 1 - used.count)) }
        if !used[index] {
            used[index] = true
            usedIDs.append(id)
        }
        append(UInt32(bitPattern: id))
        lengthSlot = bytes.bytes.count
        append(0)
    }

    func endKeyed() {
        patch(at: lengthSlot, UInt32(bytes.bytes.count - lengthSlot - 4))
    }

    /// Ends the row; moves the pending rows to the temporary file past the threshold.
    func endRow() throws(OutputError) {
        guard usedIDs.count <= maxColumns else {
            throw OutputError(
                path: "the CSV output",
                message: "more than the limit of \(maxColumns) columns (--max-columns)", isBrokenPipe: false,
                isInputLimit: true)
        }
        patch(at: rowStart, UInt32(bytes.bytes.count - rowStart - 4))
        if bytes.bytes.count >= spillThreshold { try spill() }
    }

    /// Whether rows went to a temporary file (tests).
    var spilled: Bool { file != nil }

    /// Writes `head` (the header, and anything before it), then every row with its keyed cells in
    /// the columns `order` gives (ids; unused ids are ignored), each row ending with `\n`.
    func finish(head: [UInt8], order: [Int32], to sink: ByteSink) throws(OutputError) {
        var position = [Int](repeating: -1, count: used.count)
        for (column, id) in order.enumerated() where Int(id) < position.count { position[Int(id)] = column }
        let columns = order.count
        var out = head
        out.reserveCapacity(1 << 16)
        var cells = [Range<Int>?](repeating: nil, count: columns)

        var cursor: SpoolCursor
        if let file {
            try spill()
            try file.rewind()
            cursor = SpoolCursor(file: file, buffer: [UInt8](repeating: 0, count: 1 << 18), end: 0)
        } else {
            cursor = SpoolCursor(file: nil, buffer: bytes.bytes, end: bytes.bytes.count)
            bytes.removeAll(keepingCapacity: false)
        }
        while try cursor.ensure(4) {
            let total = Int(cursor.u32(at: cursor.start))
            guard try cursor.ensure(4 + total) else { break }
            let base = cursor.start + 4
            let end = base + total
            let fixedLength = Int(cursor.u32(at: base))
            out.append(contentsOf: cursor.buffer[(base + 4)..<(base + 4 + fixedLength)])
            var offset = base + 4 + fixedLength
            var filled: [Int] = []
            while offset < end {
                let id = Int(cursor.u32(at: offset))
                let length = Int(cursor.u32(at: offset + 4))
                let column = id < position.count ? position[id] : -1
                if column >= 0 {
                    cells[column] = (offset + 8)..<(offset + 8 + length)
                    filled.append(column)
                }
                offset += 8 + length
            }
            for column in 0..<columns {
                out.append(0x2C)
                if let range = cells[column] { out.append(contentsOf: cursor.buffer[range]) }
            }
            for column in filled { cells[column] = nil }
            out.append(0x0A)
            cursor.start = end
            if out.count >= 1 << 16 {
                try sink.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if !out.isEmpty { try sink.write(out) }
        self.file = nil
    }

    private func spill() throws(OutputError) {
        if file == nil { file = try SpoolFile() }
        guard let file, !bytes.bytes.isEmpty else { return }
        try file.write(bytes.bytes)
        bytes.removeAll()
    }

    private func append(_ value: UInt32) {
        bytes.bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    private func patch(at offset: Int, _ value: UInt32) {
        bytes.bytes[offset] = UInt8(truncatingIfNeeded: value)
        bytes.bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        bytes.bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 16)
        bytes.bytes[offset + 3] = UInt8(truncatingIfNeeded: value >> 24)
    }
}

/// Reads spooled records back, keeping whole records in its buffer.
private struct SpoolCursor {
    let file: SpoolFile?
    var buffer: [UInt8]
    var start = 0
    var end: Int

    init(file: SpoolFile?, buffer: [UInt8], end: Int) {
        self.file = file
        self.buffer = buffer
        self.end = end
    }

    /// Makes `count` bytes from `start` available; false at the end of the spool.
    mutating func ensure(_ count: Int) throws(OutputError) -> Bool {
        while end - start < count {
            guard let file else { return false }
            if start > 0 {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
            }
            if count > buffer.count { buffer.append(contentsOf: repeatElement(0, count: count - buffer.count)) }
            let n = try file.read(into: &buffer, from: end)
            if n == 0 { return false }
            end += n
        }
        return true
    }

    func u32(at offset: Int) -> UInt32 {
        UInt32(buffer[offset]) | UInt32(buffer[offset + 1]) << 8 | UInt32(buffer[offset + 2]) << 16
            | UInt32(buffer[offset + 3]) << 24
    }
}
