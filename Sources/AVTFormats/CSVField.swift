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
/// otherwise, so every value round-trips. Text that begins with `=`, `+`, `-` or `@` (or a tab or
/// CR) is always written as JSON: a spreadsheet evaluates a cell that starts with one of those as a
/// formula (CSV injection), while the JSON form `"=1+1"` starts with a quote, so a spreadsheet shows
/// it as text and a reader of these files reads back exactly `=1+1`.
package enum CSVField {
    /// What a cell's text (after CSV unquoting) means.
    package enum Cell: Equatable, Sendable {
        case empty
        case value(JSONValue)
        /// The bytes are not UTF-8.
        case invalidUTF8
    }

    /// Types one cell's text.
    package static func cell(_ text: UnsafeBufferPointer<UInt8>) -> Cell {
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

    package static func cell(_ text: [UInt8]) -> Cell {
        text.withUnsafeBufferPointer { cell($0) }
    }

    package static func cell(_ text: String) -> Cell {
        cell(Array(text.utf8))
    }

    /// Whether a string must be written as JSON (`"…"`) to read back as the same string: it is
    /// empty, would read as another JSON value (`123`, `true`, `null`), starts with `"`, `{` or
    /// `[`, has white space at either end, contains control characters (so every row of a
    /// file written by avtreplay is one line), or starts like a spreadsheet formula.
    package static func needsJSON(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { utf8 -> Bool in
            guard let first = utf8.first, let last = utf8.last else { return true }
            if isSpace(first) || isSpace(last) { return true }
            for byte in utf8 where byte < 0x20 || byte == 0x7F { return true }
            switch first {
            case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["): return true
            case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"):
                // A string that reads as a number (`-5`) or as a formula (`=1+1`, `-2+3`): a
                // spreadsheet must see the quote first, so it shows text.
                return true
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                return literal(utf8) != nil
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Numbers; dates and other text that merely starts with a digit stay plain.
                return isNumber(utf8)
            default:
                return false
            }
        }
    }

    // MARK: Writing

    /// Appends a value as one CSV field (typed text, quoted when needed).
    package static func appendField(_ value: JSONValue, to w: inout JSONWriter) {
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
    package static func appendField(_ value: AttributeValue, to w: inout JSONWriter) {
        switch value {
        case .int(let i): w.int(i)
        case .double(let d): w.double(d)
        case .bool(let b): w.bool(b)
        case .string(let s): appendField(string: s, to: &w)
        }
    }

    /// Appends a string value as one CSV field: plain when that reads back as the same string,
    /// else JSON-encoded (and then CSV-quoted, since it contains `"`).
    package static func appendField(string s: String, to w: inout JSONWriter) {
        if needsJSON(s) {
            var inner = JSONWriter(capacity: s.utf8.count + 8)
            inner.string(s)
            appendQuoted(inner.bytes, to: &w.bytes)
        } else {
            appendRaw(text: s, to: &w.bytes)
        }
    }

    /// Appends untyped text (a header name) as one CSV field, quoted when needed.
    package static func appendRaw(text: String, to out: inout [UInt8]) {
        var s = text
        s.withUTF8 { utf8 in
            if utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                appendQuoted(utf8, to: &out)
            } else {
                out.append(contentsOf: utf8)
            }
        }
    }

    /// Whether text would start a formula in a spreadsheet: its first character is `=`, `+`,
    /// `-`, `@`, a tab or a CR.
    package static func startsLikeFormula(_ text: String) -> Bool {
        switch text.utf8.first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D: return true
        default: return false
        }
    }

    /// A string as the text of one CSV field, as `appendField(string:)` writes it.
    package static func field(string s: String) -> String {
        var w = JSONWriter(capacity: s.utf8.count + 8)
        appendField(string: s, to: &w)
        return String(decoding: w.bytes, as: UTF8.self)
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
    package static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s):
            return QuotedInput.quoted(s)
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array, .object: return value.typeName
        }
    }
}
