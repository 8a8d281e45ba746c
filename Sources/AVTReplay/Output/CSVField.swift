import AVTCore
import AVTJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cells of avtreplay's CSV files: timelines (`t,tracker,action,set.…`) and `--format csv`
/// records. Fields follow RFC 4180; their text is **typed**:
///
/// - an empty cell is absent;
/// - a cell whose whole text is one JSON value (a number, `true`, `false`, `null`, a `"quoted
///   string"`, an `{object}` or an `[array]`) is that value, so `1` is an integer, `1.0` a
///   double and `"""123"""` in the file (the cell text `"123"`) the string 123;
/// - any other text is that text as a string: `hello`, `2026-03-01T12:00:00.000Z`, `01`, ` 1`.
///
/// Writers use the plain form for a string whenever it reads back as the same string, and JSON
/// otherwise, so every value round-trips.
public enum CSVField {
    /// What a cell's text (after CSV unquoting) means.
    public enum Cell: Equatable, Sendable {
        case empty
        case value(JSONValue)
        /// The bytes are not UTF-8.
        case invalidUTF8
    }

    /// Types one cell's text.
    public static func cell(_ text: UnsafeBufferPointer<UInt8>) -> Cell {
        guard let first = text.first, let last = text.last else { return .empty }
        switch first {
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            if let value = literal(text) { return .value(value) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if isNumber(text), let node = try? JSONParser.parse(text) { return .value(node.value) }
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["):
            if !isSpace(last), let node = try? JSONParser.parse(text) { return .value(node.value) }
        default:
            break
        }
        guard let string = String(validating: text, as: UTF8.self) else { return .invalidUTF8 }
        return .value(.string(string))
    }

    public static func cell(_ text: [UInt8]) -> Cell {
        text.withUnsafeBufferPointer { cell($0) }
    }

    public static func cell(_ text: String) -> Cell {
        cell(Array(text.utf8))
    }

    /// Whether a string must be written as JSON (`"…"`) to read back as the same string: it is
    /// empty, would read as another JSON value (`123`, `true`, `null`), starts with `"`, `{` or
    /// `[`, has white space at either end, or contains control characters (so every row of a
    /// file written by avtreplay is one line).
    public static func needsJSON(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { utf8 -> Bool in
            guard let first = utf8.first, let last = utf8.last else { return true }
            if isSpace(first) || isSpace(last) { return true }
            for byte in utf8 where byte < 0x20 || byte == 0x7F { return true }
            switch first {
            case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["): return true
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                return literal(utf8) != nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Numbers; dates and other text that merely starts with a digit stay plain.
                return isNumber(utf8)
            default:
                return false
            }
        }
    }

    // MARK: Writing

    /// Appends a value as one CSV field (typed text, quoted when needed).
    public static func appendField(_ value: JSONValue, to w: inout JSONWriter) {
        switch value {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .int(let i): w.int(i)
        case .double(let d): w.double(d)
        case .string(let s): appendField(string: s, to: &w)
        case .array, .object:
            var inner = JSONWriter(capacity: 64)
            inner.value(value)
            appendQuoted(inner.bytes, to: &w.bytes)
        }
    }

    /// Appends an attribute value as one CSV field.
    public static func appendField(_ value: AttributeValue, to w: inout JSONWriter) {
        switch value {
        case .int(let i): w.int(i)
        case .double(let d): w.double(d)
        case .bool(let b): w.bool(b)
        case .string(let s): appendField(string: s, to: &w)
        }
    }

    /// Appends a string value as one CSV field: plain when that reads back as the same string,
    /// else JSON-encoded (and then CSV-quoted, since it contains `"`).
    public static func appendField(string s: String, to w: inout JSONWriter) {
        if needsJSON(s) {
            var inner = JSONWriter(capacity: s.utf8.count + 8)
            inner.string(s)
            appendQuoted(inner.bytes, to: &w.bytes)
        } else {
            appendRaw(text: s, to: &w.bytes)
        }
    }

    /// Appends untyped text (a header name) as one CSV field, quoted when needed.
    public static func appendRaw(text: String, to out: inout [UInt8]) {
        var s = text
        s.withUTF8 { utf8 in
            if utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                appendQuoted(utf8, to: &out)
            } else {
                out.append(contentsOf: utf8)
            }
        }
    }

    /// `"` + text with every `"` doubled + `"`.
    static func appendQuoted(_ text: some Sequence<UInt8>, to out: inout [UInt8]) {
        out.append(0x22)
        for byte in text {
            out.append(byte)
            if byte == 0x22 { out.append(0x22) }
        }
        out.append(0x22)
    }

    // MARK: Bytes

    /// Whether the whole text matches JSON's number grammar
    /// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), without parsing it.
    static func isNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = text.count
        func digits() -> Int {
            let start = i
            while i < n, text[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            return i - start
        }
        if i < n, text[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n else { return false }
        if text[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return false
        }
        if i < n, text[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < n, text[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < n, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == n
    }

    /// `true`, `false` or `null`, exactly.
    static func literal(_ text: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        if text.elementsEqual("true".utf8) { return .bool(true) }
        if text.elementsEqual("false".utf8) { return .bool(false) }
        if text.elementsEqual("null".utf8) { return .null }
        return nil
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// How a value reads in an error message: strings quoted, numbers as written.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s):
            var w = JSONWriter(capacity: s.utf8.count + 2)
            w.string(s.count > 60 ? String(s.prefix(57)) + "…" : s)
            return String(decoding: w.bytes, as: UTF8.self)
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array, .object: return value.typeName
        }
    }
}

// MARK: - Spooling rows whose columns are known only at the end

/// Rows of a CSV file whose keyed columns (attributes, `set.*` keys, …) are known only once every
/// row has been seen. Rows are kept in a compact form — the fixed cells, then (column id, cell)
/// pairs — in memory up to a threshold and then in an unlinked temporary file, so memory stays
/// bounded; `finish` writes the header and every row with the final columns.
///
/// Record layout: `u32 total | u32 fixedLength | fixed cells | (u32 id | u32 length | cell)*`.
final class CSVSpool {
    /// The pending bytes; row builders append cells to it directly.
    var bytes = JSONWriter(capacity: 1 << 16)
    /// Column ids in the order first used.
    private(set) var usedIDs: [Int32] = []
    private var used: [Bool] = []
    private var file: SpoolFile?
    private let spillThreshold: Int
    private var rowStart = 0
    private var lengthSlot = 0

    init(spillThreshold: Int = 1 << 20) {
        self.spillThreshold = spillThreshold
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

/// A temporary file that is unlinked as soon as it is created: nothing is left behind, whatever
/// happens to the process. In `$TMPDIR`, else `/tmp`.
final class SpoolFile {
    private let fd: Int32
    private let sink: FileDescriptorSink
    let name: String

    init() throws(OutputError) {
        var directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if directory.isEmpty { directory = "/tmp" }
        if directory.hasSuffix("/") { directory.removeLast() }
        var template = Array((directory + "/avtreplay-spool-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw OutputError(
                path: directory, message: "cannot create a temporary file: \(String(cString: strerror(errno)))",
                isBrokenPipe: false)
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unlink(path)
        self.fd = fd
        self.name = path
        self.sink = FileDescriptorSink(fd: fd, name: path)
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) throws(OutputError) { try sink.write(bytes) }

    func rewind() throws(OutputError) {
        guard lseek(fd, 0, SEEK_SET) == 0 else {
            throw OutputError(path: name, code: errno)
        }
    }

    /// Reads into `buffer` from `offset` to its end; 0 at the end of the file.
    func read(into buffer: inout [UInt8], from offset: Int) throws(OutputError) -> Int {
        let fd = self.fd
        let n: Int = buffer.withUnsafeMutableBytes { raw in
            while true {
                #if canImport(Glibc)
                let n = Glibc.read(fd, raw.baseAddress! + offset, raw.count - offset)
                #else
                let n = Darwin.read(fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if n >= 0 || errno != EINTR { return n }
            }
        }
        guard n >= 0 else {
            throw OutputError(path: name, code: errno)
        }
        return n
    }
}
