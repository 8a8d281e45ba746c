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
        /// Per session (the scanner's number): its last line, how many error entries it has (the
        /// most places of any dump), and its place in `order` once it has a row (-1 before).
        /// Arrays by number: a row costs no lookup.
        var lines: [Int] = []
        var errors: [Int] = []
        var ordinals: [Int] = []
        /// The session number of each name in `order`.
        var numbers: [Int] = []
        while let item = try scanner.next(&silent) {
            let session = scanner.session
            while lines.count <= session {
                lines.append(0)
                errors.append(0)
                ordinals.append(-1)
            }
            lines[session] = scanner.lineNumber
            // Consumed: its row (the first session's) is moved, not copied.
            switch consume item {
            case .checked(let guid, let index, let row):
                if ordinals[session] < 0 {
                    ordinals[session] = order.count
                    order.append(guid)
                    numbers.append(session)
                    if order.count == 1 { first = AccessLogSession(guid: guid) }
                }
                // Given for the first session's rows only.
                if let row { first?.set(row, index: index) }
            case .row:
                break  // Not given when only checking.
            case .error(_, let index):
                errors[session] = max(errors[session], index + 1)
            }
        }
        recognized = scanner.recognized
        lastLine = numbers.map { lines[$0] }
        for session in errors.indices {
            errorEntries += errors[session]
            if ordinals[session] < 0 { orphanErrors += errors[session] }
        }
    }
}
