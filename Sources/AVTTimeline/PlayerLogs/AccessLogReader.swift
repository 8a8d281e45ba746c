import AVTCore
import AVTFormats
import AVTJSON
import AVTTrackers

/// Apple's `AVPlayerItemAccessLog` (and `ErrorLog`) `extendedLogData()` text read as a coarse
/// timeline with one `avplayer` tracker named `content` (docs/player-logs.md).
///
/// The access log has no pause, buffering or seek timeline: each event is one stretch of
/// uninterrupted playback with its startup time, stall count and watched time, and each session
/// (`cs-guid`) becomes the coarse timeline `AccessLogTimeline` lays out from them.
///
/// Dumps are snapshots of the whole log so far: events are kept by session and index, a later
/// dump's replacing an earlier one's. A file is read twice: first for its index (the sessions and
/// where each one's last line is), then for the replay, which lays out each session once its last
/// line is read and lets it go, so memory holds the sessions still being dumped, not the log.
/// Standard input cannot be read twice: it is read whole before the first step (memory then
/// grows with the number of distinct events, not with the number of dumps).
package struct AccessLogReader: TimelineSource {
    package let name: String
    package let settings: TimelineSettings
    /// Error log entries (status, domain, comment), de-duplicated across dumps.
    package private(set) var errorEntries = 0

    private var scanner: AccessLogScanner
    private var warnings: PlayerLogWarnings
    /// Session names in order of first appearance, and the line each one is whole at (0 once
    /// the input was read whole).
    private let order: [String]
    private let lastLine: [Int]
    private let orphanErrors: Int
    /// The sessions' names, to leave out error entries of sessions without events.
    private let known: Set<String>
    /// Sessions read but not laid out yet, and their error log entries.
    private var pending = Pending()
    private var atEnd = false
    /// The stalls of the sessions laid out so far, for the summary.
    private var stalls = 0

    /// The coarse timeline, laid out a session at a time as the replay asks for steps.
    private var timeline = AccessLogTimeline()
    private var laidOut = 0
    /// The session's steps, and the next one to give: each is moved out (swapped with an
    /// empty step), not copied and later destroyed again with the array.
    private var steps: [Step] = []
    private var next = 0

    /// The sessions not laid out yet, in order of first appearance: all of them right after a
    /// log read whole was opened.
    package var sessions: [AccessLogSession] { order[laidOut...].compactMap { pending.session($0) } }

    /// Reads a log whole before its first step (standard input, bytes at hand).
    package init(_ input: ByteInput, warn: @escaping (String) -> Void = PlayerLogWarnings.standardError)
        throws(TimelineError)
    {
        name = input.name
        // Line warnings wait for the first thing in the format: a file that is no access log at
        // all gets one error, not a warning per line.
        var deferred: [String] = []
        var recognizedSoFar = false
        var warnings = PlayerLogWarnings(file: input.name) { message in
            if recognizedSoFar { warn(message) } else { deferred.append(message) }
        }
        var scanner = AccessLogScanner(input)
        var order: [String] = []
        var pending = Pending()
        while let item = try scanner.next(&warnings) {
            if case .row(let row, _) = item, !pending.has(row.guid) { order.append(row.guid) }
            pending.apply(item)
        }
        pending.putBack()
        let sessions = pending.sessions
        let errors = pending.errors
        recognizedSoFar = true
        if scanner.recognized > 0 { for message in deferred { warn(message) } }
        guard scanner.recognized > 0 else { throw Self.notAnAccessLog(input.name) }
        self.order = order
        lastLine = order.map { _ in 0 }
        let known = Set(order)
        self.known = known
        orphanErrors = errors.filter { !known.contains($0.key) }.values.reduce(0) { $0 + $1.count }
        errorEntries = errors.values.reduce(0) { $0 + $1.count }
        settings = Self.settings(sessions: order.count, first: order.first.flatMap { sessions[$0] })
        self.pending = pending
        self.scanner = scanner
        self.warnings = PlayerLogWarnings(file: input.name, warn: warn)
        atEnd = true
        finish(warnings: &warnings)
    }

    /// Replays a log read before for its index (`input`, a second opening of the same file):
    /// each session is laid out once its last line is read.
    package init(
        _ input: ByteInput, indexing first: ByteInput,
        warn: @escaping (String) -> Void = PlayerLogWarnings.standardError
    ) throws(TimelineError) {
        name = input.name
        let index = try AccessLogIndex(first)
        guard index.recognized > 0 else { throw Self.notAnAccessLog(input.name) }
        order = index.order
        lastLine = index.lastLine
        orphanErrors = index.orphanErrors
        known = Set(order)
        errorEntries = index.errorEntries
        settings = Self.settings(sessions: order.count, first: index.first)
        scanner = AccessLogScanner(input)
        warnings = PlayerLogWarnings(file: input.name, warn: warn)
    }

    private static func notAnAccessLog(_ file: String) -> TimelineError {
        TimelineError(
            file: file,
            message:
                "no AVPlayer access log: expected the extendedLogData() text, a #Fields: header (date time uri cs-guid …) and one line per event"
        )
    }

    private static func settings(sessions: Int, first: AccessLogSession?) -> TimelineSettings {
        var settings = TimelineSettings()
        settings.trackers = PlayerLogTrackers.specs(sessions, kind: .avplayer)
        if let first = first?.rows.first(where: { $0.date != nil }), let date = first.date {
            settings.startTime = date - (first.startup ?? 0)
        }
        return settings
    }

    /// Sessions read but not laid out yet, by name, and their error log entries. The session
    /// rows are being read into is held aside: a session's rows follow each other, so a row
    /// costs no lookup by name (its name is the same String as the last row's).
    private struct Pending {
        private(set) var sessions: [String: AccessLogSession] = [:]
        private(set) var errors: [String: [AccessLogErrorEntry]] = [:]
        private var current: AccessLogSession?
        /// `current`'s name, "" without one (no session is named "": `cs-guid` is never empty).
        private var currentGuid = ""

        func has(_ guid: String) -> Bool { current?.guid == guid || sessions[guid] != nil }

        func session(_ guid: String) -> AccessLogSession? { current?.guid == guid ? current : sessions[guid] }

        /// An event or error entry onto its session: the same place in a later dump replaces it.
        mutating func apply(_ item: consuming AccessLogScanner.Item) {
            // Consumed: the row is moved onto its session, not copied.
            switch consume item {
            case .row(let row, let index):
                if currentGuid != row.guid {
                    putBack()
                    current = sessions.removeValue(forKey: row.guid) ?? AccessLogSession(guid: row.guid)
                    currentGuid = row.guid
                }
                current!.set(row, index: index)
            case .error(let entry, let index):
                if index < errors[entry.guid, default: []].count {
                    errors[entry.guid]?[index] = entry
                } else {
                    errors[entry.guid, default: []].append(entry)
                }
            case .checked:
                break  // Only an index's reading checks events without reading them.
            }
        }

        /// The session held aside back among the others.
        mutating func putBack() {
            guard let session = current else { return }
            current = nil
            currentGuid = ""
            sessions[session.guid] = session
        }

        /// A session and its error entries, no longer pending.
        mutating func take(_ guid: String) -> (AccessLogSession?, [AccessLogErrorEntry]) {
            putBack()
            return (sessions.removeValue(forKey: guid), errors.removeValue(forKey: guid) ?? [])
        }
    }

    /// The summaries, once the whole input is read and the stalls of every session are known.
    private mutating func finish(warnings: inout PlayerLogWarnings) {
        pending.putBack()
        let total = pending.sessions.values.reduce(stalls) { $0.addingClamped($1.stalls) }
        if total > AccessLogTimeline.stallLimit {
            warnings.summary("\(total) stalls: only the first \(AccessLogTimeline.stallLimit) are replayed")
        }
        warnings.finish()
        if orphanErrors > 0 {
            warnings.summary("\(orphanErrors) error log entries of sessions without access log events: not replayed")
        }
    }

    package mutating func nextStep() throws(TimelineError) -> Step? {
        while next == steps.count {
            guard laidOut < order.count else {
                try readToEnd()
                return nil
            }
            let guid = order[laidOut]
            while !atEnd, scanner.lineNumber < lastLine[laidOut] {
                guard let item = try scanner.next(&warnings) else {
                    try readToEnd()
                    break
                }
                if case .error(let entry, _) = item, !known.contains(entry.guid) { continue }
                pending.apply(item)
            }
            let (read, errors) = pending.take(guid)
            let session = read ?? AccessLogSession(guid: guid)
            stalls = stalls.addingClamped(session.stalls)
            steps = timeline.layOut(session, number: laidOut, errors: errors)
            next = 0
            laidOut += 1
        }
        var step = Step(t: 0, tracker: 0, origin: StepOrigin(index: 0))
        swap(&step, &steps[next])
        next += 1
        return step
    }

    /// Reads what is left (its lines are warned about like the others), then the summaries.
    private mutating func readToEnd() throws(TimelineError) {
        guard !atEnd else { return }
        // Only error entries of sessions without events can follow: counted by the index.
        while let item = try scanner.next(&warnings) {
            if case .row = item { pending.apply(item) }
        }
        atEnd = true
        var warnings = self.warnings
        finish(warnings: &warnings)
        self.warnings = warnings
    }
}
