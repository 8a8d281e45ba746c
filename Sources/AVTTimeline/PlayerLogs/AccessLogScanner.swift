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
        /// In an index's reading: an event `parse` would read, only checked (`AccessLogRow.check`)
        /// and its session named; read whole (`row`, with its `index`) only for the first session
        /// to have an event (the index of the others' is 0: an index needs no place of theirs).
        case checked(guid: String, index: Int, row: AccessLogRow?)
    }

    /// Whether events are only checked (`Item.checked`), not read: an index needs their sessions.
    private let checkOnly: Bool

    private var lines: LineReader
    /// The line being read, its buffers kept from line to line.
    private var line = AccessLogLine()
    private var fields: [Substring] = []
    private var columns = AccessLogRow.Columns([])
    private var fieldsBytes: [UInt8] = []
    private var isErrorLog = false
    /// The `#Fields` header read before the current one, as the four above.
    private var otherHeader: (bytes: [UInt8], fields: [Substring], columns: AccessLogRow.Columns, isErrorLog: Bool)?
    private var inHeader = false
    /// Sessions by name, numbered from 0 in order of first appearance (rows or error entries):
    /// through the log for an index, within the dump for the replay.
    private var sessions: [String: Int] = [:]
    /// The last row's session, by its bytes: consecutive rows are nearly always of one session.
    private var lastGuid: [UInt8] = []
    private var lastName = ""
    /// The last row's session number; -1 when there is none (at the start of a dump).
    private var lastNumber = -1
    /// Recent `uri` values and their text (a session switches among a few variants).
    private var uris: [(bytes: [UInt8], text: String)] = []
    private var nextURI = 0
    private var lastURI = 0
    /// In an index's reading, the first session to have an event: its rows are read whole.
    private var firstRowSession: Int?
    /// The places given out in the current dump, by session (2n for events, 2n + 1 for error
    /// entries).
    private var placesInDump: [Int: Int] = [:]
    /// The key whose places are being given (rows of a session follow each other), its count
    /// not yet written back to `placesInDump`; -1 when none.
    private var placeKey = -1
    private var placeCount = 0
    private var glued: [UInt8]?
    /// Rows and entries read, and `#Fields` headers: the input is an access log when any.
    private(set) var recognized = 0
    /// The line last read.
    private(set) var lineNumber = 0
    /// The session of the item last given (its number, see `sessions`).
    private(set) var session = 0

    /// Whether every line is read as text (`read(text:)`): the reference the byte reading is
    /// tested against.
    private let asText: Bool

    init(_ input: ByteInput, checkOnly: Bool = false, asText: Bool = false, chunkSize: Int = 1 << 18) {
        lines = LineReader(input, chunkSize: chunkSize)
        self.checkOnly = checkOnly
        self.asText = asText
    }

    /// The next row or error entry; nil at the end of the input. Lines that are neither are said
    /// to `warnings` with their line and skipped.
    mutating func next(_ warnings: inout PlayerLogWarnings) throws(TimelineError) -> Item? {
        // The line is taken out while read: the line reader's closure cannot reach into `self`.
        var line = AccessLogLine()
        swap(&line, &self.line)
        defer { swap(&line, &self.line) }
        while true {
            let number: Int
            if let rest = glued {
                // The header of a dump glued to the last row of the one before (dumps printed
                // without a final newline, then concatenated).
                line.load(rest)
                number = lines.lineNumber
                glued = nil
            } else if let read = try lines.nextLine({ (bytes, number) in
                line.load(bytes)
                return number
            }) {
                number = read
            } else {
                return nil
            }
            lineNumber = number
            // An error log is short: its entries are read as text.
            if line.isASCII, !isErrorLog, !asText {
                if let item = read(&line, number, &warnings) { return item }
            } else if let item = read(text: line.text, number, &warnings) {
                return item
            }
        }
    }

    /// An ASCII line, by its bytes: what `read(text:)` does with its text, without the String.
    private mutating func read(_ line: inout AccessLogLine, _ number: Int, _ warnings: inout PlayerLogWarnings)
        -> Item?
    {
        if line.isEmpty { return nil }
        if line.first != Self.hash, let header = Self.gluedHeader(in: line) {
            glued = Array(line.bytes[header..<line.end])
            line.trim(line.start, header)
        }
        if line.first == Self.hash {
            startHeader()
            if line.hasPrefix("#Fields:") {
                recognized += 1
                let header = (line.start + 8)..<line.end
                if !line.equals(header, fieldsBytes) || fields.isEmpty { setFields(line.string(header)) }
            }
            return nil
        }
        inHeader = false
        guard !fields.isEmpty else {
            // The bytes: decoded only for a warning shown, not for one past the limit.
            warnings.line(number, line.bytes, "a row before any #Fields header, skipped")
            return nil
        }
        // An index's check reads the first few tokens only, a row the mapped ones.
        line.cut(places: checkOnly ? columns.checkPlaces : columns.readPlaces)
        let checked: (guid: Range<Int>, date: Int?, whole: Int)
        switch AccessLogRow.check(line, columns: columns) {
        case .failure(let problem):
            if !checkOnly { warnings.line(number, line.bytes, "\(problem.message), skipped") }
            return nil
        case .success(let result): checked = result
        }
        recognized += 1
        let (guid, session) = self.session(of: checked.guid, in: line)
        if checkOnly {
            if firstRowSession == nil { firstRowSession = session }
            // An index needs only the first session whole.
            guard firstRowSession == session else { return .checked(guid: guid, index: 0, row: nil) }
            line.cut(places: columns.readPlaces)
        }
        let index = place(of: 2 * session)
        let uriToken = columns.uri.flatMap { $0 < checked.whole ? line.token($0) : nil }
        let row = AccessLogRow.read(
            line, columns: columns, date: checked.date, whole: checked.whole, guid: guid,
            uri: uri(uriToken, in: line), line: number)
        if checkOnly { return .checked(guid: guid, index: index, row: row) }
        warn(about: row, number, line.text, &warnings)
        return .row(row, index: index)
    }

    /// A line as text (one with a byte past ASCII, or of an error log): Characters decide what
    /// is blank and where a header starts.
    private mutating func read(text: String, _ number: Int, _ warnings: inout PlayerLogWarnings) -> Item? {
        var line = Substring(text).trimmingBlanks()
        if line.isEmpty { return nil }
        // By the byte: `hasPrefix` on a Substring compares Characters, on every row.
        if line.utf8.first != Self.hash, let header = Self.gluedHeader(in: line) {
            glued = Array(line[header...].utf8)
            line = line[..<header].trimmingBlanks()
        }
        if line.utf8.first == Self.hash {
            startHeader()
            if line.hasPrefix("#Fields:") {
                recognized += 1
                let header = String(line.dropFirst(8))
                // Every dump repeats its header: the same one is not read again.
                if !header.utf8.elementsEqual(fieldsBytes) || fields.isEmpty { setFields(header) }
            }
            return nil
        }
        inHeader = false
        guard !fields.isEmpty else {
            warnings.line(number, text, "a row before any #Fields header, skipped")
            return nil
        }
        let tokens = AccessLogRow.cut(line)
        if isErrorLog {
            guard tokens.count == fields.count else {
                warnings.line(
                    number, text, "\(tokens.count) values for \(fields.count) #Fields (a cut line?), skipped")
                return nil
            }
            recognized += 1
            guard let entry = AccessLogErrorEntry.parse(tokens.all, fields: fields, line: number) else {
                warnings.line(number, text, "an error log entry without a cs-guid or a readable date, skipped")
                return nil
            }
            return .error(entry, index: place(of: 2 * session(named: entry.guid) + 1))
        }
        if checkOnly {
            guard case .success(let checked) = AccessLogRow.check(tokens, columns: columns) else { return nil }
            recognized += 1
            let guid = String(checked.guid)
            let session = session(named: guid)
            if firstRowSession == nil { firstRowSession = session }
            guard firstRowSession == session else { return .checked(guid: guid, index: 0, row: nil) }
            var row: AccessLogRow?
            if case .success(let read) = AccessLogRow.parse(tokens, columns: columns, line: number) { row = read }
            return .checked(guid: guid, index: place(of: 2 * session), row: row)
        }
        switch AccessLogRow.parse(tokens, columns: columns, line: number) {
        case .failure(let problem):
            warnings.line(number, text, "\(problem.message), skipped")
            return nil
        case .success(let row):
            recognized += 1
            warn(about: row, number, text, &warnings)
            return .row(row, index: place(of: 2 * session(named: row.guid)))
        }
    }

    /// A header line: a new dump (snapshot) starts, its events count from 0 again.
    private mutating func startHeader() {
        if !inHeader {
            placesInDump.removeAll(keepingCapacity: true)
            placeKey = -1
            // The replay needs session numbers only for places in a dump: its table holds the
            // dump's sessions, not the log's. An index numbers them through the whole log.
            if !checkOnly {
                sessions.removeAll(keepingCapacity: true)
                lastNumber = -1
            }
        }
        inHeader = true
    }

    /// A `#Fields` header other than the last one (every dump repeats its header).
    private mutating func setFields(_ header: String) {
        let bytes = Array(header.utf8)
        // An access log's dumps and its error log's alternate: the header before the last one
        // is taken back, not read again.
        if let other = otherHeader, other.bytes == bytes {
            otherHeader = (fieldsBytes, fields, columns, isErrorLog)
            (fieldsBytes, fields, columns, isErrorLog) = other
            return
        }
        if !fields.isEmpty { otherHeader = (fieldsBytes, fields, columns, isErrorLog) }
        fieldsBytes = bytes
        // The Substrings keep their header's String.
        fields = AccessLogRow.tokens(Substring(header))
        columns = AccessLogRow.Columns(fields)
        isErrorLog = fields.contains("status") && !fields.contains("c-duration-watched")
    }

    /// What a row read with a value ignored or cut short is warned about.
    private func warn(
        about row: AccessLogRow, _ number: Int, _ text: @autoclosure () -> String, _ warnings: inout PlayerLogWarnings
    ) {
        // The line's text is made only for a warning.
        guard !row.ignored.isEmpty || row.cut != nil else { return }
        let text = text()
        for field in row.ignored {
            warnings.line(number, text, "\(field) is no usable number, read as missing")
        }
        if let cut = row.cut {
            warnings.line(
                number, text, "cut after c-duration-watched (\(cut.read) whole values of \(cut.of)): read up to the cut"
            )
        }
    }

    /// The session named by the token `range`: a byte compare with the last row's, a String and
    /// a lookup only when it changes.
    private mutating func session(of range: Range<Int>, in line: AccessLogLine) -> (String, Int) {
        if lastNumber >= 0, line.equals(range, lastGuid) {
            session = lastNumber
            return (lastName, lastNumber)
        }
        let name = line.string(range)
        let number = session(named: name)
        lastGuid = Array(line.bytes[range])
        lastName = name
        lastNumber = number
        return (name, number)
    }

    private mutating func session(named name: String) -> Int {
        let number: Int
        if let known = sessions[name] {
            number = known
        } else {
            number = sessions.count
            sessions[name] = number
        }
        session = number
        return number
    }

    /// A row's `uri` as text, "-" without one; the same String for the same bytes.
    private mutating func uri(_ range: Range<Int>?, in line: AccessLogLine) -> String {
        guard let range else { return "-" }
        // The last one found first: a session's rows mostly stay on one variant.
        if lastURI < uris.count, line.equals(range, uris[lastURI].bytes) { return uris[lastURI].text }
        for index in uris.indices where line.equals(range, uris[index].bytes) {
            lastURI = index
            return uris[index].text
        }
        let entry = (bytes: Array(line.bytes[range]), text: line.string(range))
        if uris.count < 8 {
            uris.append(entry)
        } else {
            uris[nextURI] = entry
            nextURI = (nextURI + 1) % uris.count
        }
        return entry.text
    }

    private static let hash = UInt8(ascii: "#")

    /// The next place of `key` in the current dump.
    private mutating func place(of key: Int) -> Int {
        // A lookup only when the key changes: a session's rows follow each other.
        if key != placeKey {
            if placeKey >= 0 { placesInDump[placeKey] = placeCount }
            placeKey = key
            placeCount = placesInDump[key] ?? 0
        }
        defer { placeCount += 1 }
        return placeCount
    }

    /// The same on an ASCII line: a Character is a byte.
    static func gluedHeader(in line: AccessLogLine) -> Int? {
        guard line.firstIndex(of: "#") != nil else { return nil }
        if let at = line.firstIndex(of: "#Software:") { return at }
        if let at = line.firstIndex(of: "#Version:") { return at }
        if let at = line.firstIndex(of: "#Date:") { return at }
        return line.firstIndex(of: "#Fields:")
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
