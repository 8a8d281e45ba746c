import AVTCore
import AVTJSON
import AVTTrackers

/// Decodes the common shape of a JSON Lines step straight from its bytes, without building a
/// JSON tree: ASCII strings without escapes, non-negative integers, booleans, null, and `observe`
/// values nested at most one object deep. Parsing each line into a tree and then decoding it was
/// the largest single cost of a replay.
///
/// It only ever answers with the step the general path (`JSONParser` + `StepReader`) would
/// decode, or nil: for anything else (escapes, non-ASCII, fractions, negative numbers, arrays,
/// a rule violated, a syntax error) the caller runs the general path, which either decodes the
/// same step or reports the error with its file, line and column. Tests compare both paths.
package struct JSONLStepScanner {
    private let trackerNames: [[UInt8]]
    private let trackerKinds: [TrackerKind]
    private let rulesByTracker: [[String: ObservationRule]]
    /// Per tracker: observation key bytes → the key and its rule (nil for keys the kind lacks).
    private var observationKeys: [ByteKeyCache<(key: String, rule: ObservationRule)?>]
    private var attributeNames = ByteKeyCache<Attribute>()
    private var actionNames = ByteKeyCache<Action>()

    /// Past these, the general path reports the limit with its place.
    private let limits: InputLimits

    init(trackers: [TrackerSpec], limits: InputLimits = InputLimits()) {
        self.limits = limits
        trackerNames = trackers.map { Array($0.name.utf8) }
        trackerKinds = trackers.map(\.kind)
        rulesByTracker = trackers.map(\.kind.observationRules)
        observationKeys = Array(repeating: ByteKeyCache(), count: trackers.count)
    }

    /// The step on this line, or nil when the general path must decide. `previousT` is the last
    /// step's time (a step earlier than it is an error the general path reports).
    mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, index: Int, previousT: Int?) -> Step? {
        var cursor = Cursor(bytes: bytes, line: line)
        guard let step = decode(&cursor, index: index, previousT: previousT) else { return nil }
        cursor.skipSpace()
        return cursor.atEnd ? step : nil
    }

    /// The step object that starts at the first byte of `bytes` (an element of a JSON document's
    /// steps array, at `location` in it), and where it ends: its byte count, and the line and the
    /// offset of that line's start (relative to `bytes`) after it. What follows the object is the
    /// caller's. Nil as for a line, and when `bytes` end before the object does.
    mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, at location: SourceLocation, index: Int, previousT: Int?)
        -> (step: Step, count: Int, line: Int, lineStart: Int)?
    {
        var cursor = Cursor(bytes: bytes, line: location.line, lineStart: 1 - location.column)
        guard let step = decode(&cursor, index: index, previousT: previousT) else { return nil }
        return (step, cursor.index, cursor.line, cursor.lineStart)
    }

    private mutating func decode(_ c: inout Cursor, index: Int, previousT: Int?) -> Step? {
        c.skipSpace()
        let origin = StepOrigin(index: index, location: c.location)
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var t: Int?
        var tracker: Int?
        var action: Action?
        var set: [(attribute: Attribute, value: AttributeValue?)]?
        var observe: [Observation]?
        var observeStart: Cursor?
        var attributes: [(attribute: Attribute, value: AttributeValue)]?
        c.skipSpace()
        if !c.take(UInt8(ascii: "}")) {
            repeat {
                c.skipSpace()
                guard let key = c.plainString() else { return nil }
                c.skipSpace()
                guard c.take(UInt8(ascii: ":")) else { return nil }
                c.skipSpace()
                switch Self.stepKey(c.bytes, key) {
                case .t:
                    guard t == nil, let value = c.integer(), value <= FieldReader.maxMilliseconds else { return nil }
                    t = value
                case .tracker:
                    guard tracker == nil, let name = c.plainString() else { return nil }
                    guard let found = trackerNames.firstIndex(where: { Self.equal(c.bytes, name, $0) }) else {
                        return nil
                    }
                    tracker = found
                case .action:
                    guard action == nil, let name = c.plainString(), name.count > 0, name.count <= limits.maxNameBytes
                    else { return nil }
                    action = actionNames.value(for: c.bytes, name) { Action($0) }
                case .set:
                    guard set == nil, let entries = attributeObject(&c) else { return nil }
                    set = entries
                case .attributes:
                    guard attributes == nil, let entries = attributeObject(&c) else { return nil }
                    attributes = entries.compactMap { entry in entry.value.map { (entry.attribute, $0) } }
                case .observe:
                    guard observe == nil, observeStart == nil else { return nil }
                    if let tracker {
                        guard let decoded = observations(&c, tracker: tracker) else { return nil }
                        observe = decoded
                    } else {
                        // The rules depend on the tracker's kind: decode once it is known.
                        observeStart = c
                        guard c.skipObservations() else { return nil }
                    }
                case nil:
                    return nil
                }
                c.skipSpace()
            } while c.take(UInt8(ascii: ","))
            guard c.take(UInt8(ascii: "}")) else { return nil }
        }
        guard let t, let tracker else { return nil }
        if let previousT, t < previousT { return nil }
        if var again = observeStart {
            guard let decoded = observations(&again, tracker: tracker) else { return nil }
            observe = decoded
        }
        guard action != nil || set != nil || observe != nil else { return nil }
        if attributes != nil && action == nil { return nil }
        return Step(
            t: t, tracker: tracker, set: set ?? [], observe: observe ?? [], action: action,
            attributes: attributes ?? [],
            origin: origin)
    }

    private enum StepKey { case t, tracker, action, set, observe, attributes }

    private static func stepKey(_ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) -> StepKey? {
        switch key.count {
        case 1 where bytes[key.lowerBound] == UInt8(ascii: "t"): return .t
        case 3 where equal(bytes, key, "set"): return .set
        case 6 where equal(bytes, key, "action"): return .action
        case 7 where equal(bytes, key, "tracker"): return .tracker
        case 7 where equal(bytes, key, "observe"): return .observe
        case 10 where equal(bytes, key, "attributes"): return .attributes
        default: return nil
        }
    }

    /// `{"name": scalar, …}` with distinct non-empty names, in source order.
    private mutating func attributeObject(_ c: inout Cursor) -> [(attribute: Attribute, value: AttributeValue?)]? {
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var entries: [(attribute: Attribute, value: AttributeValue?)] = []
        c.skipSpace()
        if c.take(UInt8(ascii: "}")) { return entries }
        // Room for a typical object at once: growing from one entry reallocated per step.
        entries.reserveCapacity(4)
        var repeats = RepeatedKeyCheck()
        repeat {
            c.skipSpace()
            guard let name = c.plainString(), name.count > 0, name.count <= limits.maxNameBytes else { return nil }
            c.skipSpace()
            guard c.take(UInt8(ascii: ":")) else { return nil }
            c.skipSpace()
            let attribute = attributeNames.value(for: c.bytes, name) { Attribute($0) }
            guard attribute.index < limits.maxKeys else { return nil }
            guard !repeats.isRepeated(attribute, in: entries), let value = c.scalar() else { return nil }
            entries.append((attribute, value.attributeValue))
            c.skipSpace()
        } while c.take(UInt8(ascii: ","))
        guard c.take(UInt8(ascii: "}")) else { return nil }
        return entries
    }

    /// The `observe` object, each key known to the tracker's kind and its value accepted by the rule.
    private mutating func observations(_ c: inout Cursor, tracker: Int) -> [Observation]? {
        let rules = rulesByTracker[tracker]
        guard !rules.isEmpty, c.take(UInt8(ascii: "{")) else { return nil }
        var result: [Observation] = []
        c.skipSpace()
        if c.take(UInt8(ascii: "}")) { return result }
        result.reserveCapacity(4)
        repeat {
            c.skipSpace()
            guard let keyRange = c.plainString() else { return nil }
            c.skipSpace()
            guard c.take(UInt8(ascii: ":")) else { return nil }
            c.skipSpace()
            guard
                let (key, rule) = observationKeys[tracker].value(
                    for: c.bytes, keyRange, make: { key in rules[key].map { (key, $0) } }),
                !result.contains(where: { $0.key == key }), let value = c.observationValue(), rule.check(value)
            else { return nil }
            result.append(Observation(key, value))
            c.skipSpace()
        } while c.take(UInt8(ascii: ","))
        guard c.take(UInt8(ascii: "}")) else { return nil }
        // The step-level check (and canonical order) of kinds that read a step as one record.
        if case .some = trackerKinds[tracker].trackerType.checkObservations(&result) { return nil }
        return result
    }

    // Both `equal`s read `bytes[range]`: `range` is always one the cursor found inside this same
    // line (a key's or a string's content), so it lies within `bytes`; the other side is read
    // for exactly its own length.
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ other: [UInt8]) -> Bool {
        assert(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        guard range.count == other.count else { return false }
        return other.withUnsafeBufferPointer {
            equalBytes(bytes.baseAddress! + range.lowerBound, $0.baseAddress!, count: range.count)
        }
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ literal: StaticString) -> Bool {
        assert(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        guard range.count == literal.utf8CodeUnitCount else { return false }
        return equalBytes(bytes.baseAddress! + range.lowerBound, literal.utf8Start, count: range.count)
    }

    /// Names (tracker names, keys) are compared a word at a time: tracker names share long
    /// prefixes (`content0`, `content1`), and a byte loop over each candidate showed in profiles.
    @inline(__always)
    private static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        while i + 8 <= count {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
                != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self)
            {
                return false
            }
            i += 8
        }
        while i < count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }
}

/// A scalar as the scanner read it.
private enum ScannedScalar {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)

    var attributeValue: AttributeValue? {
        switch self {
        case .null: return nil
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .string(let s): return .string(s)
        }
    }

    var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .string(let s): return .string(s)
        }
    }
}

/// A read position in one line, or in a step of a JSON document that may span lines. Every
/// reader returns nil (or false) instead of throwing: the scanner's answer to anything unexpected
/// is "let the general path decide".
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var line: Int
    /// Where `line` starts, relative to `bytes` (negative when they begin mid-line).
    var lineStart: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, line: Int, lineStart: Int = 0) {
        self.bytes = bytes
        self.line = line
        self.lineStart = lineStart
    }

    var atEnd: Bool { index == bytes.count }
    var location: SourceLocation { SourceLocation(line: line, column: index - lineStart + 1) }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// The content range of a string of printable ASCII without escapes.
    mutating func plainString() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // A word at a time while 8 bytes of the line remain: the first byte that is not plain
        // ASCII ends the fast path, and it is the closing quote or a reason to decline. Keys
        // (`tracker`, `t`) are shorter than a word, so this also finds most closing quotes.
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let flags = Self.unplainBytes(word)
                if flags == 0 {
                    index += 8
                    continue
                }
                index += flags.trailingZeroBitCount >> 3
                guard bytes[index] == UInt8(ascii: "\"") else { return nil }
                index += 1
                return start..<(index - 1)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// The high bit of every byte of `word` that is not printable ASCII other than `"` and `\`
    /// (below 0x20, 0x7F and up, a quote or a backslash). Bits above the lowest may be spurious
    /// (a borrow); the lowest set bit always marks the first such byte.
    @inline(__always)
    static func unplainBytes(_ word: UInt64) -> UInt64 {
        // What output would escape, plus non-ASCII: each flag is exact per byte, so the
        // lowest set bit of the two together still marks the first such byte.
        JSONEncoding.escapeMask(word) | (word & 0x8080_8080_8080_8080)
    }

    /// A non-negative integer of at most 18 digits without leading zeros (so it always fits).
    mutating func integer() -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            // Wrapping: a longer number is declined below, before its value is used.
            value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits <= 18, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
        // Past JSON's exact range: the general path says where and why it is refused.
        guard value <= JSONValue.maxExactInteger else { return nil }
        // A fraction or exponent makes it a double: the general path's business.
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        return value
    }

    mutating func scalar() -> ScannedScalar? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard let range = plainString() else { return nil }
            return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return integer().map { .int($0) }
        }
    }

    /// A scalar, or an object of scalars (such as `presentationSize`), with the locations the
    /// parser would give its members.
    mutating func observationValue() -> JSONValue? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return scalar()?.jsonValue }
        index += 1
        var members: [JSONMember] = []
        skipSpace()
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipSpace()
            guard let keyRange = plainString() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            let at = location
            guard let value = scalar() else { return nil }
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[keyRange]), as: UTF8.self)
            members.append(JSONMember(key: key, node: JSONNode(value.jsonValue, at: at)))
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return .object(members)
    }

    /// Moves past an `observe` object (checked for real once the tracker is known).
    mutating func skipObservations() -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard plainString() != nil else { return false }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard observationValue() != nil else { return false }
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count, JSONLStepScanner.equal(bytes, index..<(index + count), word) else {
            return false
        }
        index += count
        return true
    }
}
