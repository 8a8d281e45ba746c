import AVTJSON

/// Reads the common shape of a media-internals entry (`{"time": 12.5, "key": "event", "value":
/// "kPlay"}`, its value a plain string, a number, a literal or a flat object of those) straight
/// from its bytes, without building a document tree first: most of a Chrome log is these
/// entries, and the general parser spent most of the read on them.
///
/// It answers only when it is sure: it gives exactly what the general parser gives (the same
/// values, numbers rounded the same way, the same source locations). Anything else (escapes,
/// non-ASCII text, arrays, deeper objects, exponents, long or malformed numbers, an invalid
/// entry) is `nil`, and the caller parses the entry with `JSONParser`, which decides.
enum ChromeEntryParser {
    /// The entry's members, when the bytes are of the common shape: `time` and `key` (the first
    /// of each), `value` (the first, or null); nil members when the object lacks them.
    struct Entry: Equatable {
        var time: JSONValue?
        /// The first `key` member: its text when a string, `nil` when it is something else.
        var key: ChromeEntryKey??
        var value: JSONValue?
    }

    /// `bytes` hold one object (and whitespace around it); `line` is the line of its first byte.
    /// With `reducing`, the value is only what the reader reads of it (`ChromeEntryKey.reduced`):
    /// a value whose key comes first is checked, not built, where nothing of it is read.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, reducing: Bool = false) -> Entry? {
        var cursor = Cursor(bytes: bytes, line: line)
        return cursor.entry(reducing: reducing)
    }

    /// The end of the run from `start` of bytes that may be in a plain string (printable
    /// ASCII but the quote and the backslash), eight bytes at a time; it stops at most 8 bytes
    /// before the end, where the caller goes on byte by byte.
    @inline(__always)
    static func plainPrefixEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var i = start
        while i &+ 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            // Below 0x20 or from 0x80 (the lowest flag is exact, a borrow only flags bytes
            // above it), or a quote or a backslash (a zero byte once xor-ed with it).
            let high: UInt64 = 0x8080_8080_8080_8080
            let ones: UInt64 = 0x0101_0101_0101_0101
            let quote = word ^ 0x2222_2222_2222_2222
            let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let flags =
                ((word &- 0x2020_2020_2020_2020) | word) & high
                | ((quote &- ones) & ~quote & high) | ((backslash &- ones) & ~backslash & high)
            if flags != 0 { return i &+ flags.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        return i
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var line: Int
        var lineStart = 0

        init(bytes: UnsafeBufferPointer<UInt8>, line: Int) {
            self.bytes = bytes
            self.line = line
        }

        var location: SourceLocation { SourceLocation(line: line, column: index - lineStart + 1) }

        mutating func skipWhitespace() {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    index += 1
                } else if byte == 0x0A {
                    index += 1
                    line += 1
                    lineStart = index
                } else {
                    return
                }
            }
        }

        /// Consumes `byte` after optional whitespace.
        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func entry(reducing: Bool) -> Entry? {
            guard take(0x7B) else { return nil }
            var entry = Entry()
            skipWhitespace()
            if index < bytes.count, bytes[index] == 0x7D {
                index += 1
            } else {
                while true {
                    guard let name = memberName() else { return nil }
                    switch name {
                    case .key:
                        skipWhitespace()
                        if index < bytes.count, bytes[index] == 0x22 {
                            // The key's text straight to its enum: no string for a known key.
                            guard let range = plainString() else { return nil }
                            if entry.key == nil {
                                entry.key = ChromeEntryKey(UnsafeBufferPointer(rebasing: bytes[range]))
                            }
                        } else {
                            guard value(nested: false) != nil else { return nil }
                            if entry.key == nil { entry.key = .some(nil) }
                        }
                    case .value:
                        if entry.value == nil {
                            if reducing, case let key?? = entry.key, key.valueUse != .whole {
                                guard let value = reducedValue(key.valueUse) else { return nil }
                                entry.value = value
                            } else {
                                guard let value = value(nested: false)?.value else { return nil }
                                entry.value = value
                            }
                        } else {
                            guard reducedValue(.none) != nil else { return nil }
                        }
                    case .time:
                        guard let value = value(nested: false)?.value else { return nil }
                        if entry.time == nil { entry.time = value }
                    case .other:
                        guard reducedValue(.none) != nil else { return nil }
                    }
                    guard let another = memberFollows() else { return nil }
                    if another { continue }
                    break
                }
            }
            skipWhitespace()
            guard index == bytes.count else { return nil }
            if reducing, case let key?? = entry.key, let value = entry.value { entry.value = key.reduced(value) }
            return entry
        }

        /// After an object's member: true past a `,` (another member follows), false past the
        /// closing `}`, nil on anything else (the entry is not of the common shape).
        mutating func memberFollows() -> Bool? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            index += 1
            switch bytes[index - 1] {
            case 0x2C: return true
            case 0x7D: return false
            default: return nil
            }
        }

        /// A value (after optional whitespace) as `value(nested: false)` reads it, reduced to what
        /// `use` (not `.whole`) reads of it, without building the rest; nil where `value` is.
        mutating func reducedValue(_ use: ChromeEntryKey.ValueUse) -> JSONValue? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case 0x22:
                guard let range = plainString() else { return nil }
                return use == .state ? text(range) : .null
            case 0x7B:
                return objectState(use)
            default:
                return scalar() ? .null : nil
            }
        }

        /// A number or a literal, as `value(nested: true)` reads them, passed over.
        mutating func scalar() -> Bool {
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case 0x2D, 0x30...0x39: return number() != nil
            case 0x74, 0x66, 0x6E: return literal() != nil
            default: return false
            }
        }

        /// A flat object, as `object()` reads it: its first `state` member when a string (with
        /// `use` `.state`), else null.
        mutating func objectState(_ use: ChromeEntryKey.ValueUse) -> JSONValue? {
            index += 1
            var state: JSONValue?
            while true {
                skipWhitespace()
                guard let name = plainString(), take(0x3A) else { return nil }
                skipWhitespace()
                guard index < bytes.count else { return nil }
                let isState = state == nil && matches(name, "state")
                if bytes[index] == 0x22 {
                    guard let range = plainString() else { return nil }
                    if isState { state = use == .state ? text(range) : .null }
                } else {
                    guard scalar() else { return nil }
                    if isState { state = .null }
                }
                guard let another = memberFollows() else { return nil }
                if another { continue }
                return state ?? .null
            }
        }

        func text(_ range: Range<Int>) -> JSONValue {
            .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        }

        enum Name { case time, key, value, other }

        /// A member's name and its colon.
        mutating func memberName() -> Name? {
            skipWhitespace()
            guard let range = plainString() else { return nil }
            guard take(0x3A) else { return nil }
            if matches(range, "time") { return .time }
            if matches(range, "key") { return .key }
            if matches(range, "value") { return .value }
            return .other
        }

        func matches(_ range: Range<Int>, _ name: StaticString) -> Bool {
            guard range.count == name.utf8CodeUnitCount else { return false }
            let pointer = name.utf8Start
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != pointer[offset] { return false }
            return true
        }

        /// A string of printable ASCII without escapes, at `index` (its quote): its bytes' range.
        mutating func plainString() -> Range<Int>? {
            guard index < bytes.count, bytes[index] == 0x22 else { return nil }
            let start = index + 1
            var scan = ChromeEntryParser.plainPrefixEnd(bytes, from: start)
            while scan < bytes.count {
                let byte = bytes[scan]
                if byte == 0x22 {
                    index = scan + 1
                    return start..<scan
                }
                if byte < 0x20 || byte >= 0x80 || byte == 0x5C { return nil }
                scan += 1
            }
            return nil
        }

        /// A value (after optional whitespace) as a node, with the general parser's location.
        mutating func value(nested: Bool) -> JSONNode? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let location = self.location
            let byte = bytes[index]
            switch byte {
            case 0x22:
                guard let range = plainString() else { return nil }
                return JSONNode(
                    .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)), at: location)
            case 0x2D, 0x30...0x39:
                return number().map { JSONNode($0, at: location) }
            case 0x74, 0x66, 0x6E:
                return literal().map { JSONNode($0, at: location) }
            case 0x7B where !nested:
                return object().map { JSONNode($0, at: location) }
            default:
                return nil
            }
        }

        /// A flat object (no containers inside), at its brace.
        mutating func object() -> JSONValue? {
            index += 1
            skipWhitespace()
            // An empty object, rare, is left to the general parser.
            var members: [JSONMember] = []
            while true {
                skipWhitespace()
                guard let range = plainString(), take(0x3A), let node = value(nested: true) else { return nil }
                members.append(
                    JSONMember(
                        key: String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self), node: node))
                guard let another = memberFollows() else { return nil }
                if another { continue }
                return .object(members)
            }
        }

        /// `true`, `false` or `null`, followed by no other letter.
        mutating func literal() -> JSONValue? {
            var end = index
            while end < bytes.count, (bytes[end] | 0x20) &- 0x61 < 26 { end += 1 }
            let range = index..<end
            let value: JSONValue
            if matches(range, "true") {
                value = .bool(true)
            } else if matches(range, "false") {
                value = .bool(false)
            } else if matches(range, "null") {
                value = .null
            } else {
                return nil
            }
            index = end
            return value
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` of at most 15 significant digits, computed as the general
        /// parser does (an integer as it is; a fraction as its exact mantissa divided by an exact
        /// power of ten, rounded once). Exponents and longer numbers are left to it.
        mutating func number() -> JSONValue? {
            var scan = index
            let negative = bytes[scan] == 0x2D
            if negative { scan += 1 }
            guard scan < bytes.count, bytes[scan] &- 0x30 < 10 else { return nil }
            var mantissa: UInt64 = 0
            var digits = 0
            if bytes[scan] == 0x30 {
                scan += 1
                if scan < bytes.count, bytes[scan] &- 0x30 < 10 { return nil }
            } else {
                while scan < bytes.count, bytes[scan] &- 0x30 < 10 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[scan] &- 0x30)
                    digits += 1
                    scan += 1
                    if digits > 15 { return nil }
                }
            }
            var fractionDigits = 0
            var isInteger = true
            if scan < bytes.count, bytes[scan] == 0x2E {
                isInteger = false
                scan += 1
                guard scan < bytes.count, bytes[scan] &- 0x30 < 10 else { return nil }
                while scan < bytes.count, bytes[scan] &- 0x30 < 10 {
                    if digits > 0 || bytes[scan] != 0x30 {
                        mantissa = mantissa &* 10 &+ UInt64(bytes[scan] &- 0x30)
                        digits += 1
                    }
                    fractionDigits += 1
                    scan += 1
                    if digits > 15 || fractionDigits > 22 { return nil }
                }
            }
            if scan < bytes.count, bytes[scan] | 0x20 == 0x65 { return nil }
            index = scan
            if isInteger { return .int(negative ? -Int(mantissa) : Int(mantissa)) }
            if mantissa == 0 { return .double(negative ? -0.0 : 0.0) }
            let magnitude = Double(mantissa) / Self.exactPowersOfTen[fractionDigits]
            return .double(negative ? -magnitude : magnitude)
        }

        static let exactPowersOfTen: [Double] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ]
    }
}
