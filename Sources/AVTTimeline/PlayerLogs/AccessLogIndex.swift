/// A first reading of an access log file: its sessions in order of first appearance and the
/// line of each one's last row or error entry. With it the replay reads the file a second time
/// and lays out each session as soon as its last line has been read, holding only the sessions
/// still being dumped, not the whole log (a later dump replaces an earlier one's events, so a
/// session is known only once its last dump is read). Its own memory grows with the number of
/// sessions (a name and two numbers each), not with the log's length.
struct AccessLogIndex {
    /// Session names (`cs-guid`) in order of their first row.
    private(set) var order: [String] = []
    /// Where each session's last row or error entry is, in `order`'s order.
    private(set) var lastLine: [Int] = []
    /// The first session, whole: the log's start time is its first dated event's.
    private(set) var first: AccessLogSession?
    /// Distinct error log entries, and those of sessions without access log events.
    private(set) var errorEntries = 0
    private(set) var orphanErrors = 0
    private(set) var recognized = 0

    /// Reads `input` through: no warnings (the replay's reading says them).
    init(_ input: ByteInput) throws(TimelineError) {
        var scanner = AccessLogScanner(input, checkOnly: true)
        var silent = PlayerLogWarnings(file: input.name, warn: { _ in })
        /// Per session name: its last line, how many error entries it has (the most places of
        /// any dump), and its place in `order` once it has a row. One table, so a row costs
        /// one lookup.
        var seen: [String: (line: Int, errors: Int, ordinal: Int?)] = [:]
        while let item = try scanner.next(&silent) {
            switch item {
            case .checked(let guid, let index, let tokens, let columns):
                let line = scanner.lineNumber
                let ordinal = Self.noteRow(&seen[guid, default: (0, 0, nil)], line: line, next: order.count)
                if ordinal == order.count {
                    order.append(guid)
                    if ordinal == 0 { first = AccessLogSession(guid: guid) }
                }
                if ordinal == 0, case .success(let row) = AccessLogRow.parse(tokens, columns: columns, line: line) {
                    first?.set(row, index: index)
                }
            case .row:
                break  // Not given when only checking.
            case .error(let entry, let index):
                let line = scanner.lineNumber
                Self.noteError(&seen[entry.guid, default: (0, 0, nil)], line: line, index: index)
            }
        }
        recognized = scanner.recognized
        lastLine = order.map { seen[$0]?.line ?? 0 }
        for known in seen.values {
            errorEntries += known.errors
            if known.ordinal == nil { orphanErrors += known.errors }
        }
    }

    /// A row of a session: its line is the last so far; its place in `order` (`next` when new).
    private static func noteRow(
        _ known: inout (line: Int, errors: Int, ordinal: Int?), line: Int, next: Int
    ) -> Int {
        known.line = line
        let ordinal = known.ordinal ?? next
        known.ordinal = ordinal
        return ordinal
    }

    private static func noteError(_ known: inout (line: Int, errors: Int, ordinal: Int?), line: Int, index: Int) {
        known.line = line
        known.errors = max(known.errors, index + 1)
    }
}
