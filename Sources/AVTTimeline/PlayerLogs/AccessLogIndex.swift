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
        var ordinal: [String: Int] = [:]
        /// Per session name: its last line, and how many error entries it has (the most places
        /// of any dump).
        var seen: [String: (line: Int, errors: Int)] = [:]
        while let item = try scanner.next(&silent) {
            switch item {
            case .checked(let guid, let index, let tokens, let columns):
                seen[guid, default: (0, 0)].line = scanner.lineNumber
                if ordinal[guid] == nil {
                    ordinal[guid] = order.count
                    order.append(guid)
                    if order.count == 1 { first = AccessLogSession(guid: guid) }
                }
                if guid == order.first,
                    case .success(let row) = AccessLogRow.parse(
                        tokens, columns: columns, line: scanner.lineNumber)
                {
                    first?.set(row, index: index)
                }
            case .row:
                break  // Not given when only checking.
            case .error(let entry, let index):
                var known = seen[entry.guid, default: (0, 0)]
                known.line = scanner.lineNumber
                known.errors = max(known.errors, index + 1)
                seen[entry.guid] = known
            }
        }
        recognized = scanner.recognized
        lastLine = order.map { seen[$0]?.line ?? 0 }
        for (guid, known) in seen {
            errorEntries += known.errors
            if ordinal[guid] == nil { orphanErrors += known.errors }
        }
    }
}
