import AVTJSON

/// A JSON document read a piece at a time through a window over its input: the window holds a
/// chunk plus the value being read, so memory follows the largest value, not the document.
/// Punctuation between values is checked here; each value is cut out (`JSONValueExtent`) and
/// parsed alone, at its place in the document, so every mistake is reported with the location
/// and message a parse of the whole document gives.
struct JSONDocumentCursor {
    let input: ByteInput
    private var buffer: [UInt8]
    /// The next unread byte of `buffer`; `end` is where its read bytes stop.
    private var index = 0
    private var end = 0
    /// Bytes of the document dropped before `buffer[0]`.
    private var dropped = 0
    private var atEOF = false
    private(set) var line = 1
    /// The document offset of `line`'s first byte.
    private var lineStart = 0
    /// While set, nothing read is dropped, so the document read so far can be handed to the
    /// whole-document decoder (`everythingRead`).
    var keepsEverything = false
    /// `line` and `lineStart` past the value `bufferValue` measured, until it is consumed.
    private var pendingLines = (line: 1, start: 0)

    /// Bytes a syntax error's description may look at past its offset: a word of up to 24
    /// letters, a UTF-8 sequence.
    private static let lookahead = 32

    init(_ input: ByteInput, chunkSize: Int = 1 << 18) {
        self.input = input
        // A small file gets a window its size, as `LineReader` does.
        let size = input.sizeHint.map { Swift.max($0 + 1, 1 << 12) } ?? chunkSize
        buffer = [UInt8](repeating: 0, count: Swift.max(Swift.min(chunkSize, size), 1))
    }

    /// Where the next unread byte sits in the document.
    var location: SourceLocation { SourceLocation(line: line, column: dropped + index - lineStart + 1) }

    /// The bytes the window can hold, for tests of how little is kept.
    var capacity: Int { buffer.count }

    /// The document from its first byte to the last read; only while `keepsEverything`.
    var everythingRead: [UInt8] {
        precondition(dropped == 0, "bytes were dropped")
        return Array(buffer[0..<end])
    }

    /// Skips a UTF-8 byte order mark at the start; columns count from the byte after it.
    mutating func skipByteOrderMark() throws(TimelineError) {
        _ = try fill(3)
        if end - index >= 3, buffer[index] == 0xEF, buffer[index + 1] == 0xBB, buffer[index + 2] == 0xBF {
            index += 3
            lineStart = dropped + index
        }
    }

    mutating func skipWhitespace() throws(TimelineError) {
        while true {
            while index < end {
                switch buffer[index] {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = dropped + index
                default: return
                }
            }
            if atEOF { return }
            try refill()
        }
    }

    /// The next byte, nil at the end of the input.
    mutating func peek() throws(TimelineError) -> UInt8? {
        try fill(1) ? buffer[index] : nil
    }

    /// Consumes the byte `peek` returned (never a line end).
    mutating func take() { index += 1 }

    /// A syntax error at the next byte.
    func error(_ message: String) -> TimelineError {
        TimelineError(file: input.name, location: location, message: message)
    }

    /// How a parse of the whole document names the next byte in its errors.
    mutating func found() throws(TimelineError) -> String {
        _ = try fill(Self.lookahead)
        let (index, end) = (self.index, self.end)
        return buffer.withUnsafeBufferPointer {
            JSONParser.describe(UnsafeBufferPointer(rebasing: $0[index..<end]), at: 0)
        }
    }

    /// The value that starts at the next byte, parsed; `depth` is how many containers enclose it.
    mutating func value(depth: Int) throws(TimelineError) -> JSONNode {
        let length = try bufferValue()
        return try parseBuffered(length: length, depth: depth)
    }

    /// Reads until the value that starts at the next byte is in the window, with the bytes after
    /// it that an error's description may need; returns its length. Nothing is consumed.
    mutating func bufferValue() throws(TimelineError) -> Int {
        var extent = JSONValueExtent()
        // Line ends are counted on copies: the value is consumed only once parsed.
        var (line, lineStart) = (self.line, self.lineStart)
        var scanned = index
        while true {
            let base = dropped
            if let stop = extent.scan(buffer, scanned..<end, base: base, line: &line, lineStart: &lineStart) {
                let length = stop - index
                _ = try fill(length + Self.lookahead)
                pendingLines = (line, lineStart)
                return length
            }
            if atEOF {
                pendingLines = (line, lineStart)
                return end - index
            }
            // All the window held is scanned; the scan goes on from there once more is read.
            let offset = end - index
            try refill()
            scanned = index + offset
        }
    }

    /// Parses the value `bufferValue` measured, and consumes it.
    mutating func parseBuffered(length: Int, depth: Int) throws(TimelineError) -> JSONNode {
        let (index, end, at) = (self.index, self.end, location)
        let parsed = buffer.withUnsafeBufferPointer { all in
            Result { () throws(JSONSyntaxError) in
                try JSONParser.parseValue(UnsafeBufferPointer(rebasing: all[index..<end]), at: at, depth: depth)
            }
        }
        switch parsed {
        case .success(let (node, count)):
            // A token stops where its parse stops (`1x`: the `x` is the next thing to check);
            // only containers and strings hold line ends, and those parse to their last byte.
            if count == length { (line, lineStart) = pendingLines }
            self.index += count
            return node
        case .failure(let error):
            throw TimelineError(file: input.name, location: error.location, message: error.message)
        }
    }

    /// Moves past the value that starts at the next byte without keeping it (a document's steps,
    /// when only the rest of it is wanted).
    mutating func skipValue() throws(TimelineError) {
        var extent = JSONValueExtent()
        while true {
            if let stop = extent.scan(buffer, index..<end, base: dropped, line: &line, lineStart: &lineStart) {
                index = stop
                return
            }
            index = end
            if atEOF { return }
            try refill()
        }
    }

    /// Calls `body` with `state` and the unread bytes in the window (a value may run past them).
    /// `state` is passed through, not captured, so a reader can lend its own decoder.
    func withUnread<State, R>(_ state: inout State, _ body: (inout State, UnsafeBufferPointer<UInt8>) -> R) -> R {
        let (index, end) = (self.index, self.end)
        return buffer.withUnsafeBufferPointer { body(&state, UnsafeBufferPointer(rebasing: $0[index..<end])) }
    }

    /// Consumes `count` bytes that another reader went through, which left off at `line`,
    /// whose first byte is at `lineStart` relative to the next unread byte.
    mutating func advance(by count: Int, line: Int, lineStart: Int) {
        precondition(count >= 0 && count <= end - index, "advancing past the window")
        self.lineStart = dropped + index + lineStart
        self.line = line
        index += count
    }

    /// Makes at least `count` unread bytes available; false when the input ends first.
    private mutating func fill(_ count: Int) throws(TimelineError) -> Bool {
        while end - index < count {
            if atEOF { return false }
            try refill()
        }
        return true
    }

    /// Drops what was read (unless everything is kept), grows the window only when the unread
    /// part fills it, and reads more.
    private mutating func refill() throws(TimelineError) {
        if !keepsEverything, index > 0 {
            buffer.replaceSubrange(0..<(end - index), with: buffer[index..<end])
            dropped += index
            end -= index
            index = 0
        }
        if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let n = try input.read(into: &buffer, from: end)
        if n == 0 {
            atEOF = true
            return
        }
        end += n
        guard dropped + end <= input.limits.maxDocumentBytes else { throw input.documentTooLong }
    }
}
