import AVTFormats

/// Reads an access log line by line into its rows and error log entries, each with its place in
/// the dump (snapshot) it belongs to: the same place in a later dump is the same event. It holds
/// only the current dump's places, so its memory does not grow with the log. Both readings of a
/// file (the index, then the replay) go through it, so they see the same events.
struct AccessLogScanner {
    enum Item {
        /// An event of the access log: the `index`-th of its session in this dump.
        case row(AccessLogRow, index: Int)
        /// An error log entry: the `index`-th of its session in this dump.
        case error(AccessLogErrorEntry, index: Int)
        /// In an index's reading: an event `parse` would read, only checked (`AccessLogRow.check`),
        /// its values left in `tokens` for `AccessLogRow.parse` with `columns`.
        case checked(guid: String, index: Int, tokens: AccessLogRow.Tokens, columns: AccessLogRow.Columns)
    }

    /// Whether events are only checked (`Item.checked`), not read: an index needs their sessions.
    private let checkOnly: Bool

    private var lines: LineReader
    private var fields: [Substring] = []
    private var columns = AccessLogRow.Columns([])
    private var fieldsLine = ""
    private var isErrorLog = false
    private var inHeader = false
    /// The places given out in the current dump, by session (error entries under their own key).
    private var placesInDump: [String: Int] = [:]
    private var glued: Substring?
    /// Rows and entries read, and `#Fields` headers: the input is an access log when any.
    private(set) var recognized = 0
    /// The line last read.
    private(set) var lineNumber = 0

    init(_ input: ByteInput, checkOnly: Bool = false) {
        lines = LineReader(input)
        self.checkOnly = checkOnly
    }

    /// The next row or error entry; nil at the end of the input. Lines that are neither are said
    /// to `warnings` with their line and skipped.
    mutating func next(_ warnings: inout PlayerLogWarnings) throws(TimelineError) -> Item? {
        while true {
            let text: String
            let number: Int
            if let rest = glued {
                // The header of a dump glued to the last row of the one before (dumps printed
                // without a final newline, then concatenated).
                text = String(rest)
                number = lines.lineNumber
                glued = nil
            } else if let next = try lines.nextLine({ (bytes, number) in
                (String(decoding: bytes, as: UTF8.self), number)
            }) {
                (text, number) = next
            } else {
                return nil
            }
            lineNumber = number
            var line = Substring(text).trimmingBlanks()
            if line.isEmpty { continue }
            // By the byte: `hasPrefix` on a Substring compares Characters, on every row.
            if line.utf8.first != Self.hash, let header = Self.gluedHeader(in: line) {
                glued = line[header...]
                line = line[..<header].trimmingBlanks()
            }
            if line.utf8.first == Self.hash {
                // A header line: a new dump (snapshot) starts, its events count from 0 again.
                if !inHeader { placesInDump = [:] }
                inHeader = true
                if line.hasPrefix("#Fields:") {
                    recognized += 1
                    let header = String(line.dropFirst(8))
                    // Every dump repeats its header: the same one is not read again.
                    if !header.utf8.elementsEqual(fieldsLine.utf8) || fields.isEmpty {
                        fieldsLine = header
                        fields = AccessLogRow.tokens(Substring(fieldsLine))
                        columns = AccessLogRow.Columns(fields)
                        isErrorLog = fields.contains("status") && !fields.contains("c-duration-watched")
                    }
                }
                continue
            }
            inHeader = false
            guard !fields.isEmpty else {
                warnings.line(number, text, "a row before any #Fields header, skipped")
                continue
            }
            let tokens = AccessLogRow.cut(line)
            if isErrorLog {
                guard tokens.count == fields.count else {
                    warnings.line(
                        number, text, "\(tokens.count) values for \(fields.count) #Fields (a cut line?), skipped")
                    continue
                }
                recognized += 1
                guard let entry = AccessLogErrorEntry.parse(tokens.all, fields: fields, line: number) else {
                    warnings.line(number, text, "an error log entry without a cs-guid or a readable date, skipped")
                    continue
                }
                return .error(entry, index: place(of: "\u{0}error " + entry.guid))
            }
            if checkOnly {
                guard case .success(let checked) = AccessLogRow.check(tokens, columns: columns) else { continue }
                recognized += 1
                let guid = String(checked.guid)
                return .checked(guid: guid, index: place(of: guid), tokens: tokens, columns: columns)
            }
            switch AccessLogRow.parse(tokens, columns: columns, line: number) {
            case .failure(let problem):
                warnings.line(number, text, "\(problem.message), skipped")
            case .success(let row):
                recognized += 1
                for field in row.ignored {
                    warnings.line(number, text, "\(field) is no usable number, read as missing")
                }
                if let cut = row.cut {
                    warnings.line(
                        number, text,
                        "cut after c-duration-watched (\(cut.read) whole values of \(cut.of)): read up to the cut")
                }
                return .row(row, index: place(of: row.guid))
            }
        }
    }

    private static let hash = UInt8(ascii: "#")

    /// The next place of `key` in the current dump.
    private mutating func place(of key: String) -> Int {
        // One lookup: the count is taken and advanced in place.
        Self.takeAndAdvance(&placesInDump[key, default: 0])
    }

    private static func takeAndAdvance(_ count: inout Int) -> Int {
        defer { count += 1 }
        return count
    }

    /// Where a `#Software:`, `#Version:`, `#Date:` or `#Fields:` header starts inside a line.
    static func gluedHeader(in line: Substring) -> Substring.Index? {
        // Most lines are rows without a `#`: one pass over the bytes instead of four searches.
        let hasHash = line.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "#")) }
        guard hasHash ?? true else { return nil }
        for directive in ["#Software:", "#Version:", "#Date:", "#Fields:"] {
            if let range = line.firstRange(of: directive) { return range.lowerBound }
        }
        return nil
    }
}
