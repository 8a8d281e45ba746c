import AVTJSON

/// One event (row) of an `AVPlayerItemAccessLog` dump, its tokens mapped by the `#Fields`
/// header's names (the header is the contract, not the position). Missing values are `-`.
package struct AccessLogRow: Equatable {
    /// `playbackStartDate` as ms since 1970 (device local time read as UTC); nil for `- -`.
    package var date: Int?
    package var uri: String
    package var guid: String
    /// `c-start-time`, `c-duration-watched`, `c-startup-time`: seconds, as ms.
    package var startTime: Int
    package var watched: Int
    package var startup: Int?
    package var stalls: Int
    package var framesDropped: Int
    package var indicatedBitrate: Double?
    package var observedBitrate: Double?
    /// `bytes` (numberOfBytesTransferred).
    package var bytes: Int

    /// The source line, for step origins.
    package var line: Int
    /// Fields whose value is no usable number (`nan`, `inf`, past 2^53 − 1 or the field's range),
    /// as `name "text"`: read as missing, and warned about by the reader.
    package var ignored: [String] = []
    /// The line was cut after `c-duration-watched`: the values read before the cut, of how many.
    package var cut: Cut?

    package struct Cut: Equatable {
        package var read: Int
        package var of: Int
    }

    /// Where each field the reader needs sits in a `#Fields` header: looked up once per header,
    /// not once per row.
    package final class Columns {
        let count: Int
        let date, time, uri, guid, startTime, watched, startup, stalls, framesDropped, indicated, observed, bytes: Int?

        package init(_ fields: [Substring]) {
            func column(_ name: Substring) -> Int? { fields.firstIndex(of: name) }
            count = fields.count
            date = column("date")
            time = column("time")
            uri = column("uri")
            guid = column("cs-guid")
            startTime = column("c-start-time")
            watched = column("c-duration-watched")
            startup = column("c-startup-time")
            stalls = column("c-stalls")
            framesDropped = column("c-frames-dropped")
            indicated = column("sc-indicated-bitrate")
            observed = column("c-observed-bitrate")
            bytes = column("bytes")
            checkPlaces = [guid, date, time].compactMap { $0 }.max().map { $0 + 1 } ?? 0
            readPlaces =
                [date, time, uri, guid, startTime, watched, startup, stalls, framesDropped, indicated, observed, bytes]
                .compactMap { $0 }.max().map { $0 + 1 } ?? 0
        }

        /// The tokens `read` (and `check`) reads at most: the fields after the last one mapped
        /// are only counted.
        let readPlaces: Int

        /// The tokens `check` reads at most (the session's and the date's are among the first).
        let checkPlaces: Int

        /// Whether the values before index `whole` hold an event: its session, date, variant,
        /// start and watched time.
        func readable(before whole: Int) -> Bool {
            guard let guid, let watched, let startTime else { return false }
            return [guid, watched, startTime, uri ?? 0, date ?? 0, time ?? 0].allSatisfy { $0 < whole }
        }
    }

    /// What decides whether `parse` reads a row, without reading its values: its session and
    /// date, and how many of its values are whole; the reason when it cannot be read. An index
    /// of the log's sessions needs no more.
    package static func check(_ tokens: Tokens, columns: Columns) -> Result<
        (guid: Substring, date: Int?, whole: Int), RowError
    > {
        check(count: tokens.count, columns: columns, token: { tokens[$0] }, isMissing: isMissing, readDate: date)
    }

    /// `check` on any reading of a row's tokens (text or bytes): `count` tokens, the `i`-th
    /// given by `token`. Inlined into each reading, so its readers are direct calls.
    @inline(__always)
    private static func check<Token>(
        count: Int, columns: Columns, token: (Int) -> Token, isMissing: (Token) -> Bool,
        readDate: (Token, Token) -> Int?
    ) -> Result<(guid: Token, date: Int?, whole: Int), RowError> {
        // A line cut short (the end of a paste, a logger's line limit) still tells the watched
        // time when the cut lies after it: the values before the last token are whole (the last
        // may be cut inside), the rest are missing.
        let whole = count == columns.count ? count : count - 1
        guard count == columns.count || count < columns.count && columns.readable(before: whole) else {
            return .failure(RowError.counts(count, for: columns.count))
        }
        func value(_ column: Int?) -> Token? { column.flatMap { $0 < whole ? token($0) : nil } }
        guard let guid = value(columns.guid), !isMissing(guid) else { return .failure(RowError("no cs-guid")) }
        var date: Int?
        if let day = value(columns.date), let time = value(columns.time), !isMissing(day) {
            guard let parsed = readDate(day, time) else {
                return .failure(RowError("a date that is not yyyy/MM/dd HH:mm:ss"))
            }
            date = parsed
        }
        return .success((guid, date, whole))
    }

    /// Reads a row given where the header puts each field; the reason when it cannot.
    package static func parse(_ tokens: Tokens, columns: Columns, line: Int) -> Result<AccessLogRow, RowError> {
        let (guid, date, whole): (Substring, Int?, Int)
        switch check(tokens, columns: columns) {
        case .failure(let problem): return .failure(problem)
        case .success(let checked): (guid, date, whole) = checked
        }
        func value(_ column: Int?) -> Substring? { column.flatMap { $0 < whole ? tokens[$0] : nil } }
        var ignored: [String] = []
        // A number the field cannot hold is missing, and said: `nan`, `inf`, 2^63 bytes.
        func number(_ column: Int?, _ name: String, below limit: Double) -> Double? {
            guard let text = value(column), !Self.isMissing(text), let number = DecimalText.double(text) else {
                return nil
            }
            guard number.isFinite, number < limit else {
                ignored.append("\(name) \"\(text)\"")
                return nil
            }
            return number >= 0 ? number : nil
        }
        func integer(_ column: Int?, _ name: String) -> Int? {
            guard let text = value(column), !Self.isMissing(text) else { return nil }
            return Self.integer(text, name, ignored: &ignored)
        }
        var row = Self.row(
            columns: columns, date: date, whole: whole, guid: String(guid), uri: String(value(columns.uri) ?? "-"),
            line: line, number: number, integer: integer)
        row.ignored = ignored
        return .success(row)
    }

    /// The row from its readers of a number and of an integer field (each nil when missing or
    /// unusable): the text and the byte readings share which field becomes which value. Inlined
    /// into each reading, so that its readers are direct calls, not closures.
    @inline(__always)
    private static func row(
        columns: Columns, date: Int?, whole: Int, guid: String, uri: String, line: Int,
        number: (_ column: Int?, _ name: String, _ below: Double) -> Double?,
        integer: (_ column: Int?, _ name: String) -> Int?
    ) -> AccessLogRow {
        func seconds(_ column: Int?, _ name: String) -> Int? {
            number(column, name, 1e12).map { Int(($0 * 1000).rounded()) }
        }
        var row = AccessLogRow(
            date: date, uri: uri, guid: guid,
            startTime: seconds(columns.startTime, "c-start-time") ?? 0,
            watched: seconds(columns.watched, "c-duration-watched") ?? 0,
            startup: seconds(columns.startup, "c-startup-time"),
            stalls: integer(columns.stalls, "c-stalls") ?? 0,
            framesDropped: integer(columns.framesDropped, "c-frames-dropped") ?? 0,
            indicatedBitrate: number(columns.indicated, "sc-indicated-bitrate", 1e15),
            observedBitrate: number(columns.observed, "c-observed-bitrate", 1e15),
            bytes: integer(columns.bytes, "bytes") ?? 0, line: line)
        if whole < columns.count { row.cut = Cut(read: whole, of: columns.count) }
        return row
    }

    /// An integer field's value (`c-stalls`, `bytes`): nil when missing, negative or no usable
    /// number; a number the field cannot hold is noted in `ignored`.
    static func integer(_ text: Substring, _ name: String, ignored: inout [String]) -> Int? {
        guard let value = Int(text), value <= JSONValue.maxExactInteger else {
            if text.allSatisfy(\.isNumber) || Double(text).map({ !$0.isFinite }) == true {
                ignored.append("\(name) \"\(text)\"")
            }
            return nil
        }
        return value >= 0 ? value : nil
    }

    /// `check` on an ASCII line's bytes (`AccessLogLine`, cut): the session's token in place of
    /// its text.
    static func check(_ line: AccessLogLine, columns: Columns) -> Result<
        (guid: Range<Int>, date: Int?, whole: Int), RowError
    > {
        check(
            count: line.count, columns: columns, token: { line.token($0) }, isMissing: { line.isMissing($0) },
            readDate: { line.date($0, $1) })
    }

    /// `parse` on an ASCII line's bytes that `check` accepted (`date`, `whole`), its session and
    /// variant already made Strings by the caller (they repeat from row to row).
    static func read(
        _ line: AccessLogLine, columns: Columns, date: Int?, whole: Int, guid: String, uri: String, line lineNumber: Int
    ) -> AccessLogRow {
        func value(_ column: Int?) -> Range<Int>? { column.flatMap { $0 < whole ? line.token($0) : nil } }
        var ignored: [String] = []
        func number(_ column: Int?, _ name: String, below limit: Double) -> Double? {
            guard let text = value(column), !line.isMissing(text), let number = line.double(text) else { return nil }
            guard number.isFinite, number < limit else {
                ignored.append("\(name) \"\(line.string(text))\"")
                return nil
            }
            return number >= 0 ? number : nil
        }
        func integer(_ column: Int?, _ name: String) -> Int? {
            guard let text = value(column), !line.isMissing(text) else { return nil }
            // Plain digits (every row's): the same value `Int(_:)` reads, past 2^53 − 1 ignored.
            if let digits = line.digits(text) {
                guard digits <= JSONValue.maxExactInteger else {
                    ignored.append("\(name) \"\(line.string(text))\"")
                    return nil
                }
                return digits
            }
            return Self.integer(Substring(line.string(text)), name, ignored: &ignored)
        }
        var row = Self.row(
            columns: columns, date: date, whole: whole, guid: guid, uri: uri, line: lineNumber, number: number,
            integer: integer)
        row.ignored = ignored
        return row
    }

    /// `yyyy/MM/dd` and `HH:mm:ss.sss`, where `sss` is the seconds again, zero-padded to three
    /// digits (`15:25:02.002`), not milliseconds: the real resolution is one second.
    /// A `-` value (the field is missing), by its byte: `!= "-"` compared Unicode strings, on
    /// every value of every row.
    static func isMissing(_ value: Substring) -> Bool {
        value.utf8.count == 1 && value.utf8.first == UInt8(ascii: "-")
    }

    package static func date(_ day: Substring, _ time: Substring) -> Int? {
        // Digit groups read straight from the bytes: a split per row cost a quarter of the read.
        date(
            numbers(day.utf8, separator: UInt8(ascii: "/"), upTo: nil),
            numbers(time.utf8, separator: UInt8(ascii: ":"), upTo: UInt8(ascii: ".")))
    }

    /// The same on the two values' bytes.
    static func date(_ day: UnsafeBufferPointer<UInt8>, _ time: UnsafeBufferPointer<UInt8>) -> Int? {
        date(
            fixed(day, separator: UInt8(ascii: "/"), upTo: nil)
                ?? numbers(day, separator: UInt8(ascii: "/"), upTo: nil),
            fixed(time, separator: UInt8(ascii: ":"), upTo: UInt8(ascii: "."))
                ?? numbers(time, separator: UInt8(ascii: ":"), upTo: UInt8(ascii: ".")))
    }

    /// `numbers` on the shape every row has, `yyyy/MM/dd` or `HH:mm:ss` (then the end or `end`):
    /// the groups at fixed places. Nil for any other shape, which `numbers` then reads (giving
    /// the same groups on this one).
    static func fixed(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8, upTo end: UInt8?) -> (
        Int, Int, Int, count: Int
    )? {
        @inline(__always) func digit(_ at: Int) -> Int? {
            let value = bytes[at] &- UInt8(ascii: "0")
            return value < 10 ? Int(value) : nil
        }
        if end == nil {
            guard bytes.count == 10, bytes[4] == separator, bytes[7] == separator, let y0 = digit(0), let y1 = digit(1),
                let y2 = digit(2), let y3 = digit(3), let m0 = digit(5), let m1 = digit(6), let d0 = digit(8),
                let d1 = digit(9)
            else { return nil }
            return (((y0 * 10 + y1) * 10 + y2) * 10 + y3, m0 * 10 + m1, d0 * 10 + d1, 3)
        }
        guard bytes.count == 8 || bytes.count > 8 && bytes[8] == end, bytes[2] == separator, bytes[5] == separator,
            let h0 = digit(0), let h1 = digit(1), let m0 = digit(3), let m1 = digit(4), let s0 = digit(6),
            let s1 = digit(7)
        else { return nil }
        return (h0 * 10 + h1, m0 * 10 + m1, s0 * 10 + s1, 3)
    }

    private static func date(_ d: (Int, Int, Int, count: Int)?, _ t: (Int, Int, Int, count: Int)?) -> Int? {
        guard let d, let t, d.count == 3, t.count == 3 else { return nil }
        let (year, month, dayOfMonth, h, m, s) = (d.0, d.1, d.2, t.0, t.1, t.2)
        guard (1...12).contains(month), (1...31).contains(dayOfMonth), (0..<24).contains(h), (0..<60).contains(m),
            (0..<61).contains(s), (1...9999).contains(year)
        else { return nil }
        return LogcatEnvelope.daysFromCivil(year, month, dayOfMonth) * 86_400_000 + ((h * 60 + m) * 60 + s) * 1000
    }

    /// Up to three groups of 1–4 digits joined by `separator`, ending at the end or at `end`
    /// (what follows it is not read); nil on anything else.
    private static func numbers(_ text: Substring.UTF8View, separator: UInt8, upTo end: UInt8?) -> (
        Int, Int, Int, count: Int
    )? {
        // On the contiguous bytes (a row's are): iterating the view itself cost a call per byte.
        text.withContiguousStorageIfAvailable { numbers($0, separator: separator, upTo: end) }
            ?? numbers(Array(text), separator: separator, upTo: end)
    }

    static func numbers<Bytes: Collection<UInt8>>(_ bytes: Bytes, separator: UInt8, upTo end: UInt8?) -> (
        Int, Int, Int, count: Int
    )? {
        var groups = (0, 0, 0)
        var count = 0
        var digits = 0
        for byte in bytes {
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard digits < 4, digits > 0 || count < 3 else { return nil }
                if digits == 0 { count += 1 }
                let digit = Int(byte - UInt8(ascii: "0"))
                switch count {
                case 1: groups.0 = groups.0 * 10 + digit
                case 2: groups.1 = groups.1 * 10 + digit
                default: groups.2 = groups.2 * 10 + digit
                }
                digits += 1
            } else if byte == separator, digits > 0 {
                digits = 0
            } else if byte == end, digits > 0 {
                break
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        return (groups.0, groups.1, groups.2, count)
    }

    /// A line's tokens, found on its bytes and sliced only when read: a row uses 12 of its 24.
    package struct Tokens {
        package let line: Substring
        let cuts: [Range<Int>]

        package var count: Int { cuts.count }

        package subscript(index: Int) -> Substring {
            let utf8 = line.utf8
            let from = utf8.index(utf8.startIndex, offsetBy: cuts[index].lowerBound)
            return Substring(utf8[from..<utf8.index(from, offsetBy: cuts[index].count)])
        }

        package var all: [Substring] { cuts.indices.map { self[$0] } }
    }

    /// Space-separated tokens; a `"…"` token (the error log's domain and comment) keeps its spaces.
    package static func tokens(_ line: Substring) -> [Substring] { cut(line).all }

    /// The tokens' places. Cuts are found on the UTF-8 bytes: both separators are ASCII, so every
    /// cut is a character boundary.
    package static func cut(_ line: Substring) -> Tokens {
        let cuts: [Range<Int>]? = line.utf8.withContiguousStorageIfAvailable { bytes in
            var cuts: [Range<Int>] = []
            // An access log row has about 24 fields: one allocation, not one per doubling.
            cuts.reserveCapacity(32)
            var index = 0
            let space = UInt8(ascii: " ")
            let quote = UInt8(ascii: "\"")
            while index < bytes.count {
                while index < bytes.count, bytes[index] == space { index += 1 }
                guard index < bytes.count else { break }
                let start = index
                if bytes[index] == quote {
                    index += 1
                    while index < bytes.count, bytes[index] != quote { index += 1 }
                    if index < bytes.count { index += 1 }
                } else {
                    while index < bytes.count, bytes[index] != space { index += 1 }
                }
                cuts.append(start..<index)
            }
            return cuts
        }
        guard let cuts else {
            // A bridged or otherwise non-contiguous string: copy it once.
            var copy = String(line)
            copy.makeContiguousUTF8()
            return cut(Substring(copy))
        }
        return Tokens(line: line, cuts: cuts)
    }

    package struct RowError: Error, Equatable {
        /// A fixed text, or the counts of a cut line: put into words only when said (an index's
        /// reading says nothing, and a noisy log's warnings past the limit are only counted).
        private enum Kind: Equatable {
            case text(String)
            case counts(values: Int, fields: Int)
        }
        private let kind: Kind

        package var message: String {
            switch kind {
            case .text(let text): return text
            case .counts(let values, let fields): return "\(values) values for \(fields) #Fields (a cut line?)"
            }
        }

        init(_ message: String) { kind = .text(message) }

        static func counts(_ values: Int, for fields: Int) -> RowError {
            RowError(kind: .counts(values: values, fields: fields))
        }

        private init(kind: Kind) { self.kind = kind }
    }
}
