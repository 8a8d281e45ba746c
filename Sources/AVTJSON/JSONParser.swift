/// A strict RFC 8259 reader over UTF-8 bytes that records where every value starts.
///
/// The reader is iterative (an explicit stack of open containers), so the nesting limit is a
/// plain counter check and no input can overflow the call stack, whatever thread parses it.
package enum JSONParser {
    /// Deep enough for any real timeline; shallow enough that hostile input stays cheap.
    static let maxDepth = 512

    /// Parses exactly one JSON value (surrounded by optional whitespace) from UTF-8 bytes.
    /// `firstLine` is the line number of the first byte (for JSONL, where each line is parsed alone).
    /// Throws JSONSyntaxError on anything that is not strict RFC 8259 JSON.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int = 1) throws(JSONSyntaxError)
        -> JSONNode
    {
        var reader = Reader(bytes, firstLine: firstLine)
        return try reader.parseDocument()
    }

    package static func parse(_ bytes: [UInt8], firstLine: Int = 1) throws(JSONSyntaxError) -> JSONNode {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            try parse(buffer, firstLine: firstLine)
        }
    }

    /// Parses one value that starts at the first byte of `bytes` and returns it with the count of
    /// bytes it took; what follows is the caller's. For a value read out of a larger document, one
    /// piece at a time: `location` is where its first byte sits in the document, and `depth` how
    /// many containers enclose it there, so locations and the nesting limit are the document's.
    package static func parseValue(_ bytes: UnsafeBufferPointer<UInt8>, at location: SourceLocation, depth: Int)
        throws(JSONSyntaxError) -> (node: JSONNode, count: Int)
    {
        var reader = Reader(bytes, firstLine: location.line, firstColumn: location.column, depth: depth)
        return try reader.parseValue()
    }

    /// How a parse error names the input at `offset` (`'x'`, `a newline`, `end of input`), for a
    /// reader of a larger document that checks its punctuation itself.
    package static func describe(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
        Reader(bytes, firstLine: 1).describe(at: offset)
    }

    package static func parse(_ text: String, firstLine: Int = 1) throws(JSONSyntaxError) -> JSONNode {
        var text = text
        // `withUTF8` only rethrows untyped errors, so the typed error travels out inside a Result.
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONSyntaxError) -> JSONNode in try parse(buffer, firstLine: firstLine) }
        }
        return try result.get()
    }
}

// MARK: - Byte constants

private enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
}

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }

@inline(__always)
private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

/// Powers of ten that a Double represents exactly; multiplying or dividing an exact mantissa by
/// one of them rounds once, so the result is correctly rounded (Clinger's fast path).
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

// MARK: - Reader

/// One parse's state. Finished children wait on shared stacks (`elements`, `members`) until
/// their container closes, so each container allocates one array of its final size, and the
/// outermost one takes the stack itself.
private struct Reader {
    /// An open `[` or `{` whose children start at `start` in `elements` or `members`.
    struct Frame {
        var isObject: Bool
        var start: Int
        var location: SourceLocation
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let firstLine: Int
    /// Where the first line starts, relative to `bytes`: negative when they begin mid-line.
    let firstLineStart: Int
    /// Containers that enclose `bytes` in their document.
    let enclosingDepth: Int
    var index = 0
    var line: Int
    /// Offset of the first byte of `line`; columns are measured from it.
    var lineStart: Int

    var frames: [Frame] = []
    var elements: [JSONNode] = []
    /// Members of open objects. The last one of each open object holds a placeholder node
    /// until its value is finished.
    var members: [JSONMember] = []
    /// Decoded bytes of a string that contains escapes.
    var scratch: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, firstColumn: Int = 1, depth: Int = 0) {
        self.bytes = bytes
        self.firstLine = firstLine
        self.firstLineStart = 1 - firstColumn
        self.enclosingDepth = depth
        self.line = firstLine
        self.lineStart = 1 - firstColumn
    }

    // MARK: Structure

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        skipByteOrderMark()
        let root = try parseOneValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw error("unexpected content after the JSON value, found \(describe(at: index))", at: index)
        }
        return root
    }

    /// One value from the first byte (no byte order mark, no white space before it).
    mutating func parseValue() throws(JSONSyntaxError) -> (node: JSONNode, count: Int) {
        let node = try parseOneValue()
        return (node, index)
    }

    mutating func parseOneValue() throws(JSONSyntaxError) -> JSONNode {
        var root: JSONNode
        while true {
            skipWhitespace()
            guard var node = try beginValue() else { continue }  // a container opened; parse its first child
            // Fold the finished value into its containers, closing each one whose closer follows,
            // until either the root is done or a ',' asks for another value.
            var expectsAnotherValue = false
            while !frames.isEmpty {
                guard let closed = try attachToInnermostContainer(node) else {
                    expectsAnotherValue = true
                    break
                }
                node = closed
            }
            if !expectsAnotherValue {
                root = node
                break
            }
        }
        return root
    }

    /// Reads the value starting at `index`. Returns nil when it is a non-empty container, whose
    /// frame is now open and whose first child comes next.
    mutating func beginValue() throws(JSONSyntaxError) -> JSONNode? {
        guard index < bytes.count else { throw endOfInput() }
        let location = currentLocation
        switch bytes[index] {
        case ASCII.quote:
            return JSONNode(.string(try parseString()), at: location)
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return JSONNode(try parseNumber(), at: location)
        case ASCII.openBrace:
            return try openContainer(isObject: true, at: location)
        case ASCII.openBracket:
            return try openContainer(isObject: false, at: location)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return JSONNode(try parseLiteral(), at: location)
        default:
            // Inside an array a ']' here can only follow a ',' (an empty array closed earlier).
            let trailingComma = bytes[index] == ASCII.closeBracket && frames.last?.isObject == false
            throw error(
                "expected a JSON value, found \(describe(at: index))"
                    + (trailingComma ? " (trailing commas are not allowed)" : ""),
                at: index)
        }
    }

    /// Consumes `{` or `[`; an empty container is returned at once, otherwise a frame is opened.
    mutating func openContainer(isObject: Bool, at location: SourceLocation) throws(JSONSyntaxError) -> JSONNode? {
        guard frames.count + enclosingDepth < JSONParser.maxDepth else {
            throw error("nesting deeper than \(JSONParser.maxDepth) levels", at: index)
        }
        index += 1
        skipWhitespace()
        let closer = isObject ? ASCII.closeBrace : ASCII.closeBracket
        if index < bytes.count && bytes[index] == closer {
            index += 1
            return JSONNode(isObject ? .object([]) : .array([]), at: location)
        }
        reserveStacks(forObject: isObject)
        frames.append(Frame(isObject: isObject, start: isObject ? members.count : elements.count, location: location))
        if isObject { try parseKeyAndColon(afterComma: false) }
        return nil
    }

    /// Typical documents are small and shallow: one allocation per stack in use instead of
    /// repeated growth, and none for a stack the document never needs.
    @inline(__always)
    mutating func reserveStacks(forObject isObject: Bool) {
        if frames.capacity == 0 { frames.reserveCapacity(8) }
        if isObject {
            if members.capacity == 0 { members.reserveCapacity(16) }
        } else {
            if elements.capacity == 0 { elements.reserveCapacity(16) }
        }
    }

    /// Adds a finished value to the innermost open container, then consumes the ',' or the closer
    /// after it. Returns the container's node if it closed, nil if another child follows.
    mutating func attachToInnermostContainer(_ node: consuming JSONNode) throws(JSONSyntaxError) -> JSONNode? {
        let frame = frames[frames.count - 1]
        if frame.isObject {
            members[members.count - 1].node = node
        } else {
            elements.append(node)
        }
        skipWhitespace()
        guard index < bytes.count else { throw endOfInput() }
        switch bytes[index] {
        case ASCII.comma:
            index += 1
            if frame.isObject { try parseKeyAndColon(afterComma: true) }
            return nil
        case ASCII.closeBrace where frame.isObject:
            index += 1
            return closeInnermostContainer(frame)
        case ASCII.closeBracket where !frame.isObject:
            index += 1
            return closeInnermostContainer(frame)
        default:
            let expected = frame.isObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
            throw error("expected \(expected), found \(describe(at: index))", at: index)
        }
    }

    mutating func closeInnermostContainer(_ frame: Frame) -> JSONNode {
        frames.removeLast()
        let isRoot = frames.isEmpty
        if frame.isObject {
            return JSONNode(
                .object(takeChildren(from: &members, start: frame.start, isRoot: isRoot)), at: frame.location)
        } else {
            return JSONNode(
                .array(takeChildren(from: &elements, start: frame.start, isRoot: isRoot)), at: frame.location)
        }
    }

    /// Moves the children above `start` out of a stack into an array of exactly their count.
    /// The root, the last container to close, takes the stack's storage itself instead: that saves
    /// a copy and an allocation per JSONL line, at the price of some spare capacity.
    func takeChildren<Child>(from stack: inout [Child], start: Int, isRoot: Bool) -> [Child] {
        if isRoot {
            defer { stack = [] }
            return stack
        }
        let children = Array(stack[start...])
        stack.removeSubrange(start...)
        return children
    }

    /// Reads `"key" :` and opens the member, whose value comes next.
    mutating func parseKeyAndColon(afterComma: Bool) throws(JSONSyntaxError) {
        skipWhitespace()
        guard index < bytes.count else { throw endOfInput() }
        guard bytes[index] == ASCII.quote else {
            let trailingComma = afterComma && bytes[index] == ASCII.closeBrace
            throw error(
                "expected a string key, found \(describe(at: index))"
                    + (trailingComma ? " (trailing commas are not allowed)" : ""),
                at: index)
        }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count else { throw endOfInput() }
        guard bytes[index] == ASCII.colon else {
            throw error("expected ':' after an object key, found \(describe(at: index))", at: index)
        }
        index += 1
        // `.null` is a payload-free placeholder: it costs no allocation.
        members.append(JSONMember(key: key, node: JSONNode(.null, at: currentLocation)))
    }

    /// The error for input that stops where more was required; it names the open container.
    func endOfInput() -> JSONSyntaxError {
        guard let frame = frames.last else {
            return error("expected a JSON value, found end of input", at: index)
        }
        return error("unexpected end of input inside \(frame.isObject ? "an object" : "an array")", at: index)
    }

    // MARK: Whitespace and locations

    /// Editors hide a byte order mark, so columns are counted from the byte after it.
    mutating func skipByteOrderMark() {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
    }

    /// Whitespace is the only place a valid document has a newline, so lines are counted here.
    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.space || byte == ASCII.tab || byte == ASCII.carriageReturn {
                index += 1
            } else if byte == ASCII.newline {
                index += 1
                line += 1
                lineStart = index
            } else {
                return
            }
        }
    }

    var currentLocation: SourceLocation {
        SourceLocation(line: line, column: index - lineStart + 1)
    }

    /// The location of any offset, for errors; counts the newlines not yet seen by `skipWhitespace`.
    func location(of offset: Int) -> SourceLocation {
        var line = self.line
        var start = self.lineStart
        if offset < start {
            line = firstLine
            start = firstLineStart
        }
        var scan = Swift.max(start, 0)
        while scan < offset && scan < bytes.count {
            if bytes[scan] == ASCII.newline {
                line += 1
                start = scan + 1
            }
            scan += 1
        }
        return SourceLocation(line: line, column: offset - start + 1)
    }

    func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(location: location(of: offset), message: message)
    }

    // MARK: Literals

    mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var end = start
        while end < bytes.count && isLetter(bytes[end]) { end += 1 }
        let value: JSONValue
        if matches("true", from: start, to: end) {
            value = .bool(true)
        } else if matches("false", from: start, to: end) {
            value = .bool(false)
        } else if matches("null", from: start, to: end) {
            value = .null
        } else {
            throw error("expected a JSON value, found \(describe(at: start))", at: start)
        }
        index = end
        return value
    }

    func matches(_ literal: StaticString, from start: Int, to end: Int) -> Bool {
        guard end - start == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { expected in
            for offset in 0..<expected.count where bytes[start + offset] != expected[offset] {
                return false
            }
            return true
        }
    }

    // MARK: Numbers

    /// Validates the RFC 8259 number grammar while accumulating the digits, so common numbers
    /// never need a String: integers up to 19 digits and short decimals are exact from the digits.
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }

        // Up to 19 decimal digits always fit in a UInt64; later digits only count.
        var mantissa: UInt64 = 0
        var digitCount = 0
        @inline(__always) func accumulate(_ byte: UInt8) {
            if digitCount < 19 { mantissa = mantissa &* 10 &+ UInt64(byte &- ASCII.zero) }
            digitCount += 1
        }

        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("expected a digit after '-', found \(describe(at: index))", at: index)
        }
        if bytes[index] == ASCII.zero {
            index += 1
            if index < bytes.count && isDigit(bytes[index]) {
                throw error(
                    "leading zeros are not allowed in numbers, found \(describe(at: index)) after '0'", at: index)
            }
        } else {
            while index < bytes.count && isDigit(bytes[index]) {
                accumulate(bytes[index])
                index += 1
            }
        }

        var isInteger = true
        var fractionDigits = 0
        if index < bytes.count && bytes[index] == ASCII.dot {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit after '.', found \(describe(at: index))", at: index)
            }
            while index < bytes.count && isDigit(bytes[index]) {
                // Leading zeros of the mantissa don't grow it, so they need not count as digits.
                if digitCount > 0 || bytes[index] != ASCII.zero { accumulate(bytes[index]) }
                if digitCount <= 19 { fractionDigits += 1 }
                index += 1
            }
        }

        var exponent = 0
        if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < bytes.count && (bytes[index] == ASCII.plus || bytes[index] == ASCII.minus) {
                exponentNegative = bytes[index] == ASCII.minus
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit in the exponent, found \(describe(at: index))", at: index)
            }
            while index < bytes.count && isDigit(bytes[index]) {
                // Saturate: beyond this every double is already 0 or infinite.
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] &- ASCII.zero) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        let allDigitsKept = digitCount <= 19
        if isInteger && allDigitsKept {
            if !negative && mantissa <= UInt64(Int.max) { return .int(Int(mantissa)) }
            if negative && mantissa <= UInt64(Int.max) + 1 { return .int(Int(truncatingIfNeeded: 0 &- mantissa)) }
            // Too big for Int: the conversion below rounds correctly by itself.
            return .double(negative ? -Double(mantissa) : Double(mantissa))
        }
        if allDigitsKept && mantissa <= 1 << 53 {
            let scale = exponent - fractionDigits
            if mantissa == 0 { return .double(negative ? -0.0 : 0.0) }
            if scale >= -22 && scale <= 22 {
                let magnitude =
                    scale >= 0
                    ? Double(mantissa) * exactPowersOfTen[scale]
                    : Double(mantissa) / exactPowersOfTen[-scale]
                return .double(negative ? -magnitude : magnitude)
            }
        }
        return try parseDoubleSlowly(from: start)
    }

    /// Rare numbers (many digits, large exponents) go through the standard library's correctly
    /// rounded conversion on the already-validated literal.
    func parseDoubleSlowly(from start: Int) throws(JSONSyntaxError) -> JSONValue {
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            // The literal itself is not quoted back: it may be hundreds of digits long.
            throw error("number out of range (larger than a double can hold)", at: start)
        }
        return .double(value)
    }

    // MARK: Strings

    /// Reads a string starting at its opening quote. Keys and values are nearly always plain
    /// printable ASCII: those are scanned by a minimal loop and become a String straight from the
    /// input bytes. Anything else (escapes, non-ASCII, errors) goes to the general reader.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        var scan = index + 1
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == ASCII.quote {
                index = scan + 1
                return makeString(UnsafeBufferPointer(rebasing: bytes[(quote + 1)..<scan]))
            }
            if byte < 0x20 || byte >= 0x80 || byte == ASCII.backslash { break }
            scan += 1
        }
        return try parseGeneralString(openingQuote: quote, resumingAt: scan)
    }

    /// Reads the rest of a string from `offset`, everything before it being plain ASCII.
    /// Unescaped runs are validated and copied as they are; escapes are decoded into `scratch`.
    @inline(never)
    mutating func parseGeneralString(openingQuote quote: Int, resumingAt offset: Int) throws(JSONSyntaxError) -> String
    {
        index = offset
        var runStart = quote + 1
        var hasEscapes = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x80 && byte != ASCII.quote && byte != ASCII.backslash {
                index += 1
            } else if byte == ASCII.quote {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                guard hasEscapes else { return makeString(run) }
                scratch.append(contentsOf: run)
                return scratch.withUnsafeBufferPointer { makeString($0) }
            } else if byte == ASCII.backslash {
                if !hasEscapes {
                    hasEscapes = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try appendEscape(openingQuote: quote)
                runStart = index
            } else if byte < 0x20 {
                throw error("unescaped control character inside a string, found \(describe(at: index))", at: index)
            } else {
                guard let length = utf8SequenceLength(at: index) else {
                    throw error("invalid UTF-8 inside a string, found byte \(hex(byte))", at: index)
                }
                index += length
            }
        }
        throw error("unterminated string", at: quote)
    }

    /// Makes a String from bytes already checked to be valid UTF-8. Unlike `String(decoding:)`,
    /// this initializer skips validation for short ASCII text, the bulk of keys and values.
    func makeString(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: utf8.count) { buffer in
            buffer.initialize(fromContentsOf: utf8)
        }
    }

    /// Decodes the escape at `index` (a backslash) into `scratch`.
    mutating func appendEscape(openingQuote: Int) throws(JSONSyntaxError) {
        let escapeStart = index
        guard index + 1 < bytes.count else { throw error("unterminated string", at: openingQuote) }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case ASCII.quote, ASCII.backslash, ASCII.slash: scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(ASCII.newline)
        case UInt8(ascii: "r"): scratch.append(ASCII.carriageReturn)
        case UInt8(ascii: "t"): scratch.append(ASCII.tab)
        case UInt8(ascii: "u"): appendUTF8(try parseUnicodeEscape(escapeStart: escapeStart))
        default:
            if letter > 0x20 && letter < 0x7F {
                throw error("invalid escape '\\\(Character(Unicode.Scalar(letter)))'", at: escapeStart)
            }
            throw error("invalid escape, found \(describe(at: escapeStart + 1)) after '\\'", at: escapeStart)
        }
    }

    /// Reads the hex digits of `\uXXXX` (`index` is just past the `u`), joining a surrogate pair,
    /// and returns the code point, never a surrogate.
    mutating func parseUnicodeEscape(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        let first = try parseHex4()
        switch first {
        case 0xD800...0xDBFF:
            guard index + 1 < bytes.count && bytes[index] == ASCII.backslash && bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw error(
                    "lone surrogate '\(sourceText(escapeStart..<index))': a high surrogate must be followed by a low surrogate escape",
                    at: escapeStart)
            }
            index += 2
            let second = try parseHex4()
            guard second >= 0xDC00 && second <= 0xDFFF else {
                throw error(
                    "mismatched surrogate pair '\(sourceText(escapeStart..<index))': a high surrogate must be followed by a low surrogate (\\uDC00-\\uDFFF)",
                    at: escapeStart)
            }
            return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error(
                "lone surrogate '\(sourceText(escapeStart..<index))': a low surrogate without a high surrogate before it",
                at: escapeStart)
        default:
            return first
        }
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error("expected 4 hex digits after '\\u', found \(describe(at: index))", at: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func appendUTF8(_ codePoint: UInt32) {
        switch codePoint {
        case ..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: codePoint))
        case ..<0x800:
            scratch.append(0xC0 | UInt8(truncatingIfNeeded: codePoint >> 6))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: codePoint) & 0x3F)
        case ..<0x10000:
            scratch.append(0xE0 | UInt8(truncatingIfNeeded: codePoint >> 12))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: codePoint >> 6) & 0x3F)
            scratch.append(0x80 | UInt8(truncatingIfNeeded: codePoint) & 0x3F)
        default:
            scratch.append(0xF0 | UInt8(truncatingIfNeeded: codePoint >> 18))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: codePoint >> 12) & 0x3F)
            scratch.append(0x80 | UInt8(truncatingIfNeeded: codePoint >> 6) & 0x3F)
            scratch.append(0x80 | UInt8(truncatingIfNeeded: codePoint) & 0x3F)
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `offset`, or nil. Rejects
    /// overlong forms, surrogates and code points above U+10FFFF (RFC 3629).
    func utf8SequenceLength(at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: return nil
        }
        guard offset + length <= bytes.count, secondRange.contains(bytes[offset + 1]) else { return nil }
        for continuation in (offset + 2)..<(offset + length) where bytes[continuation] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    // MARK: Describing input in messages

    /// What the input holds at `offset`, as a user reads it: `'x'`, `'NaN'`, `a newline`, `byte 0x01`.
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        switch byte {
        case ASCII.newline: return "a newline"
        case ASCII.carriageReturn: return "a carriage return"
        case ASCII.tab: return "a tab"
        case ASCII.space: return "a space"
        case _ where isLetter(byte):
            // A whole word reads better than its first letter ("found 'NaN'", "found 'True'").
            var end = offset
            while end < bytes.count && end - offset < 24 && isLetter(bytes[end]) { end += 1 }
            return "'\(sourceText(offset..<end))'"
        case UInt8(ascii: "'"):
            return "\"'\" (JSON strings use double quotes)"
        case 0x21..<0x7F:
            return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x80...:
            guard let length = utf8SequenceLength(at: offset) else { return "byte \(hex(byte))" }
            return "'\(sourceText(offset..<(offset + length)))'"
        default:
            return "byte \(hex(byte))"
        }
    }

    func sourceText(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

private func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case ASCII.zero...ASCII.nine: return UInt32(byte - ASCII.zero)
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0x0" + digits : "0x" + digits
}
