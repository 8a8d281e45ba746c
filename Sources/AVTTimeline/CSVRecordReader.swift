import AVTCore
import AVTFormats
import AVTJSON
import AVTTrackers

/// Splits a `ByteInput` into RFC 4180 records: `,` separators, `"` quoting with `""` escapes,
/// quoted fields spanning lines, CRLF or LF line ends, an optional UTF-8 BOM. Holds one chunk of
/// input plus the current record. A `"` inside an unquoted field is kept as text.
package struct CSVRecordReader {
    struct Field {
        /// The unquoted text in `text`.
        var range: Range<Int>
        var line: Int
        var column: Int
        var quoted: Bool
    }

    struct RawLine {
        /// The line with `#avtreplay` blanked out, so JSON columns match the file's.
        var bytes: [UInt8]
        var line: Int
    }

    private let input: ByteInput
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Absolute offset of `buffer[0]` in the input, and of the current line's first byte.
    private var base = 0
    private var lineStart = 0
    /// The line of the next byte.
    private(set) var line = 1

    /// The current record: its fields' unquoted text, one after another.
    private(set) var text: [UInt8] = []
    private(set) var fields: [Field] = []
    private(set) var recordLine = 1

    init(_ input: ByteInput, chunkSize: Int = 1 << 18) throws(TimelineError) {
        self.input = input
        // A small file gets a buffer its size (grown like any buffer if it grew meanwhile).
        let size = input.sizeHint.map { Swift.max($0 + 1, 1 << 12) } ?? chunkSize
        self.buffer = [UInt8](repeating: 0, count: Swift.min(chunkSize, size))
        while end < 3, !atEOF { try refill() }
        if end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            start = 3
            lineStart = 3
        }
    }

    /// Whether the current record has no text at all (an empty line, or only empty fields).
    var isBlank: Bool { text.isEmpty && !fields.contains(where: \.quoted) }

    func cell(_ field: Field) -> CSVField.Cell {
        text.withUnsafeBufferPointer { all in CSVField.cell(UnsafeBufferPointer(rebasing: all[field.range])) }
    }

    /// The first line if it is `#avtreplay …` (consumed); nil, consuming nothing, otherwise.
    mutating func settingsLine() throws(TimelineError) -> RawLine? {
        let marker = Array("#avtreplay".utf8)
        while end - start < marker.count + 1, !atEOF { try refill() }
        guard end > start, buffer[start] == UInt8(ascii: "#") else { return nil }
        let available = buffer[start..<min(end, start + marker.count + 1)]
        guard available.starts(with: marker) else {
            throw TimelineError(
                file: input.name, location: SourceLocation(line: 1, column: 1),
                message: "expected the header row, or #avtreplay followed by the settings object, on the first line")
        }
        // The line, up to its end (refilling as needed).
        while true {
            if buffer[start..<end].contains(0x0A) || atEOF { break }
            try refill()
        }
        let newline = buffer[start..<end].firstIndex(of: 0x0A) ?? end
        var bytes = Array(buffer[start..<newline])
        for i in 0..<marker.count { bytes[i] = 0x20 }
        if bytes.last == 0x0D { bytes.removeLast() }
        start = min(end, newline + 1)
        let result = RawLine(bytes: bytes, line: line)
        line += 1
        lineStart = base + start
        return result
    }

    private enum State {
        case fieldStart, unquoted, quoted, afterQuote
    }

    /// Reads the next record into `text` and `fields`; false at the end of input.
    mutating func next() throws(TimelineError) -> Bool {
        text.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        recordLine = line
        let recordOffset = base + start
        var state = State.fieldStart
        var started = false
        var fieldStart = 0
        var fieldLine = line
        var fieldColumn = 1
        var quoted = false
        var quoteLine = line
        var quoteColumn = 1

        func endField() {
            fields.append(Field(range: fieldStart..<text.count, line: fieldLine, column: fieldColumn, quoted: quoted))
        }

        while true {
            if start == end {
                if atEOF { break }
                // A record that never ends (`/dev/zero`, an unclosed quote over a huge file)
                // would grow `text` and `fields` until memory ran out.
                if base + start - recordOffset > input.limits.maxLineBytes { throw tooLong(line: recordLine) }
                try refill()
                continue
            }
            let byte = buffer[start]
            started = true
            switch state {
            case .fieldStart:
                fieldStart = text.count
                fieldLine = line
                fieldColumn = base + start - lineStart + 1
                quoted = byte == 0x22
                if quoted {
                    quoteLine = line
                    quoteColumn = fieldColumn
                    state = .quoted
                    start += 1
                } else {
                    state = .unquoted
                }
            case .unquoted, .afterQuote:
                switch byte {
                case 0x2C:
                    endField()
                    start += 1
                    state = .fieldStart
                case 0x0A:
                    endField()
                    start += 1
                    newLine()
                    return true
                case 0x0D:
                    if start + 1 == end, !atEOF {
                        try refill()
                        continue
                    }
                    if start + 1 < end, buffer[start + 1] == 0x0A {
                        endField()
                        start += 2
                        newLine()
                        return true
                    }
                    if state == .afterQuote { throw afterQuoteError(byte) }
                    text.append(byte)
                    start += 1
                case 0x22 where state == .afterQuote:
                    text.append(0x22)
                    start += 1
                    state = .quoted
                default:
                    if state == .afterQuote { throw afterQuoteError(byte) }
                    // The run of ordinary bytes up to the next separator, line end or chunk end.
                    let runEnd = scan(from: start + 1) { $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }
                    text.append(contentsOf: buffer[start..<runEnd])
                    start = runEnd
                }
            case .quoted:
                if byte == 0x22 {
                    start += 1
                    state = .afterQuote
                } else if byte == 0x0A {
                    text.append(byte)
                    start += 1
                    newLine()
                } else {
                    let runEnd = scan(from: start + 1) { $0 == 0x22 || $0 == 0x0A }
                    text.append(contentsOf: buffer[start..<runEnd])
                    start = runEnd
                }
            }
        }
        // End of input.
        switch state {
        case .quoted:
            throw TimelineError(
                file: input.name, location: SourceLocation(line: quoteLine, column: quoteColumn),
                message: "unterminated quoted field: expected a closing \" before the end of the input")
        case .fieldStart:
            guard started else { return false }
            fieldStart = text.count
            fieldLine = line
            fieldColumn = base + start - lineStart + 1
            quoted = false
            endField()
        case .unquoted, .afterQuote:
            endField()
        }
        return true
    }

    /// The index of the first byte from `index` that `stop` accepts, or `end`.
    @inline(__always)
    private func scan(from index: Int, until stop: (UInt8) -> Bool) -> Int {
        buffer.withUnsafeBufferPointer { bytes in
            var i = index
            while i < end, !stop(bytes[i]) { i += 1 }
            return i
        }
    }

    private func afterQuoteError(_ byte: UInt8) -> TimelineError {
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : hexByte(byte)
        return TimelineError(
            file: input.name, location: SourceLocation(line: line, column: base + start - lineStart + 1),
            message: "expected ',' or the end of the line after a closing quote, found \(shown) "
                + "(write a quote inside a quoted field as \"\")")
    }

    private mutating func newLine() {
        line += 1
        lineStart = base + start
    }

    /// Moves the unread bytes to the front (growing the buffer only when it is full) and reads more.
    private func tooLong(line: Int) -> TimelineError {
        TimelineError(
            file: input.name, location: SourceLocation(line: line, column: 1),
            message: "a record longer than the limit of \(input.limits.maxLineBytes) bytes (--max-line-bytes)")
    }

    private mutating func refill() throws(TimelineError) {
        guard end - start < input.limits.maxLineBytes else { throw tooLong(line: line) }
        if start > 0 {
            buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
            base += start
            end -= start
            start = 0
        }
        if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let n = try input.read(into: &buffer, from: end)
        if n == 0 { atEOF = true } else { end += n }
    }
}

private func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "byte 0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
}
