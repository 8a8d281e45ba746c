import AVTCore
import AVTFormats
import AVTJSON
import AVTTrackers

/// Apple's `AVPlayerItemAccessLog` (and `ErrorLog`) `extendedLogData()` text read as a coarse
/// timeline with one `avplayer` tracker named `content` (docs/player-logs.md).
///
/// The access log has no pause, buffering or seek timeline: each event is one stretch of
/// uninterrupted playback with its startup time, stall count and watched time. So each session
/// (`cs-guid`) becomes: the stream loads (`status: readyToPlay`), plays after the first event's
/// `c-startup-time`, and then each event plays for its `c-duration-watched` at its own
/// `c-start-time`, `c-observed-bitrate` and `sc-indicated-bitrate`, with its stalls as zero-length
/// waits (the log has no stall durations) at its end; a `Stop` ends the session where the log's
/// knowledge ends. A seek (between events) is a zero-length seek before the event that follows
/// it; dropped frames are a running total; error log entries are non-fatal errors at their
/// time. Time between events (pauses, seek durations) is not in the log and not in the
/// timeline. A variant switch, which the tracker only sees from a presentation size the log
/// does not have, is a scripted `QualityChangeUp`/`Down` after the event it switched to
/// begins. The session's player is released after its `Stop`, so its periodic time observer
/// does not tick through the sessions that follow.
///
/// Dumps are snapshots of the whole log so far: events are kept by session and index, a later
/// dump's replacing an earlier one's, so the input is read whole before the first step (memory
/// grows with the number of distinct events, not with the number of dumps).
package struct AccessLogReader: TimelineSource {
    package let name: String
    package let settings: TimelineSettings
    /// The sessions in order of first appearance.
    package let sessions: [AccessLogSession]
    /// Error log entries (status, domain, comment), de-duplicated across dumps.
    package private(set) var errorEntries = 0

    private var steps: [Step] = []
    private var next = 0

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
        var lines = LineReader(input)
        var fields: [Substring] = []
        var columns = AccessLogRow.Columns([])
        var fieldsLine = ""
        var isErrorLog = false
        var dumpIndex: [String: Int] = [:]
        var inHeader = false
        // Sessions in order of first appearance, found by cs-guid (rows of one session come in
        // runs, so the last one found is tried first), and how many events each has in the
        // current dump (`dump` counts the dumps).
        var found: [AccessLogSession] = []
        var sessionOf: [String: Int] = [:]
        var lastFound: (guid: String, index: Int)?
        var counted: [(dump: Int, events: Int)] = []
        var dump = 0
        var recognized = 0
        var errorsByGuid: [String: [AccessLogErrorEntry]] = [:]
        var glued: Substring?
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
                break
            }
            var line = Substring(text).trimmingBlanks()
            if line.isEmpty { continue }
            if !line.hasPrefix("#"), let header = Self.gluedHeader(in: line) {
                glued = line[header...]
                line = line[..<header].trimmingBlanks()
            }
            if line.hasPrefix("#") {
                // A header line: a new dump (snapshot) starts, its events count from 0 again.
                if !inHeader {
                    dumpIndex = [:]
                    dump += 1
                }
                inHeader = true
                if line.hasPrefix("#Fields:") {
                    recognized += 1
                    fieldsLine = String(line.dropFirst(8))
                    fields = AccessLogRow.tokens(Substring(fieldsLine))
                    columns = AccessLogRow.Columns(fields)
                    isErrorLog = fields.contains("status") && !fields.contains("c-duration-watched")
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
                // Error log dumps are snapshots too: the entry of the same index in a later dump
                // is the same entry.
                let key = "\u{0}error " + entry.guid
                let index = dumpIndex[key, default: 0]
                dumpIndex[key] = index + 1
                if index < errorsByGuid[entry.guid, default: []].count {
                    errorsByGuid[entry.guid]?[index] = entry
                } else {
                    errorsByGuid[entry.guid, default: []].append(entry)
                }
                continue
            }
            switch AccessLogRow.parse(tokens, columns: columns, line: number) {
            case .failure(let problem):
                warnings.line(number, text, "\(problem.message), skipped")
            case .success(let row):
                recognized += 1
                let session: Int
                if let lastFound, lastFound.guid == row.guid {
                    session = lastFound.index
                } else if let known = sessionOf[row.guid] {
                    session = known
                } else {
                    session = found.count
                    sessionOf[row.guid] = session
                    found.append(AccessLogSession(guid: row.guid))
                    counted.append((dump, 0))
                }
                lastFound = (row.guid, session)
                // Each session numbers its own events within a dump.
                if counted[session].dump != dump { counted[session] = (dump, 0) }
                found[session].set(row, index: counted[session].events)
                counted[session].events += 1
            }
        }
        recognizedSoFar = true
        if recognized > 0 { for message in deferred { warn(message) } }
        guard recognized > 0 else {
            throw TimelineError(
                file: input.name,
                message:
                    "no AVPlayer access log: expected the extendedLogData() text, a #Fields: header (date time uri cs-guid …) and one line per event"
            )
        }
        sessions = found
        let errors = errorsByGuid.values.reduce(0) { $0 + $1.count }
        errorEntries = errors
        var settings = TimelineSettings()
        settings.trackers = PlayerLogTrackers.specs(sessions.count, kind: .avplayer)
        if let first = sessions.first?.rows.first(where: { $0.date != nil }), let date = first.date {
            settings.startTime = date - (first.startup ?? 0)
        }
        self.settings = settings
        steps = Self.steps(for: sessions, errors: errorsByGuid)
        let stalls = sessions.reduce(0) { $0.addingClamped($1.stalls) }
        if stalls > Self.stallLimit {
            warnings.summary("\(stalls) stalls: only the first \(Self.stallLimit) are replayed")
        }
        warnings.finish()
        let known = Set(sessions.map(\.guid))
        let orphans = errorsByGuid.filter { !known.contains($0.key) }.values.reduce(0) { $0 + $1.count }
        if orphans > 0 {
            warnings.summary("\(orphans) error log entries of sessions without access log events: not replayed")
        }
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

    package mutating func nextStep() throws(TimelineError) -> Step? {
        guard next < steps.count else { return nil }
        next += 1
        return steps[next - 1]
    }

    /// Stalls replayed at most, per log: each is two steps held in memory, and a hostile log
    /// could claim billions. Real logs have a handful.
    static let stallLimit = 100_000

    /// The coarse timeline of every session, laid end to end.
    static func steps(for sessions: [AccessLogSession], errors: [String: [AccessLogErrorEntry]] = [:]) -> [Step] {
        var steps: [Step] = []
        var cursor = 0
        var stallSteps = 0
        func add(_ t: Int, tracker: Int, line: Int, _ observe: [(String, JSONValue)], action: Action? = nil) {
            var step = Step(
                t: min(t, FieldReader.maxMilliseconds), tracker: tracker,
                observe: observe.map { Observation($0.0, $0.1) },
                origin: StepOrigin(index: steps.count, location: SourceLocation(line: line, column: 1)))
            step.action = action
            steps.append(step)
        }
        /// A session's error log entries due by `t`, each at its place on the coarse timeline.
        var pendingErrors: [(t: Int, entry: AccessLogErrorEntry)] = []
        var nextError = 0
        func addErrors(upTo t: Int, tracker: Int) {
            while nextError < pendingErrors.count, pendingErrors[nextError].t <= t {
                let (at, entry) = pendingErrors[nextError]
                nextError += 1
                add(at, tracker: tracker, line: entry.line, [("errorLogEvent", .string(entry.text))])
            }
        }
        for (number, session) in sessions.enumerated() {
            let tracker = min(number, PlayerLogTrackers.limit - 1)
            guard let first = session.rows.firstIndex(where: { $0.date != nil }) else {
                // Never played: the stream loaded, nothing more is known.
                if let row = session.rows.first {
                    add(cursor, tracker: tracker, line: row.line, [("status", .string("readyToPlay"))])
                }
                continue
            }
            let start = session.rows[first]
            add(cursor, tracker: tracker, line: start.line, [("status", .string("readyToPlay"))])
            cursor = cursor.saturatingAdd(start.startup ?? 0)
            pendingErrors = Self.errorTimes(errors[session.guid] ?? [], session: session, startsAt: cursor)
            nextError = 0
            var playing = false
            let seeks = Set(session.seekRows)
            let switches = session.variantSwitches
            var nextSwitch = 0
            /// The switches to events up to `row`: dateless events are not on the timeline, so a
            /// switch to one shows with the next event that plays (or at the session's end).
            func addSwitches(upTo row: Int, at t: Int, line: Int) {
                while nextSwitch < switches.count, switches[nextSwitch].row <= row {
                    add(
                        t, tracker: tracker, line: line, [],
                        action: switches[nextSwitch].up ? .qualityChangeUp : .qualityChangeDown)
                    nextSwitch += 1
                }
            }
            var dropped = 0
            // Running totals of bytes and transfer time, over every event up to the one that
            // plays (dateless events download too): the KPIs' mean bandwidth.
            var transfer = (bytes: 0, time: 0, counted: 0, sent: 0)
            func transfers(upTo row: Int) -> [(String, JSONValue)] {
                while transfer.counted <= row, transfer.counted < session.rows.count {
                    let event = session.rows[transfer.counted]
                    if let time = AccessLogSession.transferTime(event) {
                        transfer.bytes = transfer.bytes.addingClamped(event.bytes)
                        transfer.time = transfer.time.addingClamped(time)
                    }
                    transfer.counted += 1
                }
                guard transfer.bytes != transfer.sent else { return [] }
                transfer.sent = transfer.bytes
                return [("bytesTransferred", .int(transfer.bytes)), ("transferDuration", .int(transfer.time))]
            }
            for (index, row) in session.rows.enumerated() where index >= first && row.date != nil {
                addErrors(upTo: cursor, tracker: tracker)
                var observe: [(String, JSONValue)] = [("currentTime", .int(row.startTime))]
                if let observed = row.observedBitrate { observe.append(("observedBitrate", .int(Int(observed)))) }
                if let indicated = row.indicatedBitrate { observe.append(("indicatedBitrate", .int(Int(indicated)))) }
                // AVPlayerItem's dropped frames are a running total over the item's events.
                if row.framesDropped > 0 {
                    dropped = dropped.addingClamped(row.framesDropped)
                    observe.append(("droppedVideoFrames", .int(dropped)))
                }
                observe += transfers(upTo: index)
                if !playing {
                    playing = true
                    observe.append(("rate", .int(1)))
                    observe.append(("timeControlStatus", .string("playing")))
                } else if seeks.contains(index) {
                    // A seek between two events: the player jumped and waited (no duration in
                    // the log), then this event plays from its c-start-time.
                    add(
                        cursor, tracker: tracker, line: row.line,
                        [
                            ("timeControlStatus", .string("waitingToPlayAtSpecifiedRate")),
                            ("notification", .string("timeJumped")),
                        ])
                    observe.append(("timeControlStatus", .string("playing")))
                }
                add(cursor, tracker: tracker, line: row.line, observe)
                addSwitches(upTo: index, at: cursor, line: row.line)
                cursor = cursor.saturatingAdd(row.watched)
                let replayed = Swift.min(row.stalls, Swift.max(0, Self.stallLimit - stallSteps))
                stallSteps += replayed
                for _ in 0..<replayed {
                    add(
                        cursor, tracker: tracker, line: row.line,
                        [("timeControlStatus", .string("waitingToPlayAtSpecifiedRate"))])
                    add(cursor, tracker: tracker, line: row.line, [("timeControlStatus", .string("playing"))])
                }
            }
            addErrors(upTo: .max, tracker: tracker)
            let last = session.rows.last?.line ?? start.line
            addSwitches(upTo: .max, at: cursor, line: last)
            let trailing = transfers(upTo: session.rows.count - 1)
            if !trailing.isEmpty { add(cursor, tracker: tracker, line: last, trailing) }
            // Where the log's knowledge ends: the playback ends here, the next session is new.
            add(cursor, tracker: tracker, line: last, [], action: .stop)
            add(cursor, tracker: tracker, line: last, [("release", .bool(true))])
        }
        return steps
    }

    /// Where each error entry falls on a session's coarse timeline: within the dated event that
    /// was playing at its date (the latest event that began by then: its start plus the time
    /// since, at most its watched time), at the first event's start when it is earlier, at the
    /// session's end when dateless. A binary search per entry: a hostile log with many events
    /// and many errors stays fast.
    static func errorTimes(_ entries: [AccessLogErrorEntry], session: AccessLogSession, startsAt: Int)
        -> [(t: Int, entry: AccessLogErrorEntry)]
    {
        var stretches: [(date: Int, t: Int, watched: Int)] = []
        var cursor = startsAt
        for row in session.rows {
            guard let date = row.date else { continue }
            stretches.append((date, cursor, row.watched))
            cursor = cursor.saturatingAdd(row.watched)
        }
        // By date, events of the same date in log order (the later one wins).
        let byDate = stretches.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
            .map(\.element)
        let timed = entries.map { entry -> (t: Int, entry: AccessLogErrorEntry) in
            guard let date = entry.date else { return (cursor, entry) }
            // The number of events that began by `date`.
            var low = 0
            var high = byDate.count
            while low < high {
                let middle = (low + high) / 2
                if byDate[middle].date <= date { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return (startsAt, entry) }
            let stretch = byDate[low - 1]
            let since = Swift.min(Swift.max(0, date.subtractingClamped(stretch.date)), stretch.watched)
            return (stretch.t.saturatingAdd(since), entry)
        }
        // In time order; entries at the same time keep the log's order.
        return timed.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
    }
}

extension Int {
    /// `self − other`, clamped: hostile dates must not trap.
    fileprivate func subtractingClamped(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }

    fileprivate func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? FieldReader.maxMilliseconds : Swift.min(sum, FieldReader.maxMilliseconds)
    }
}
