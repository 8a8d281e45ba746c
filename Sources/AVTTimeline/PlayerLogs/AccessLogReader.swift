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
/// dump's replacing an earlier one's, so the input is read whole before the first step (memory
/// grows with the number of distinct events, not with the number of dumps).
package struct AccessLogReader: TimelineSource {
    package let name: String
    package let settings: TimelineSettings
    /// The sessions in order of first appearance.
    package let sessions: [AccessLogSession]
    /// Error log entries (status, domain, comment), de-duplicated across dumps.
    package private(set) var errorEntries = 0

    /// The coarse timeline, laid out a session at a time as the replay asks for steps.
    private var timeline: AccessLogTimeline
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
                for field in row.ignored {
                    warnings.line(number, text, "\(field) is no usable number, read as missing")
                }
                if let cut = row.cut {
                    warnings.line(
                        number, text,
                        "cut after c-duration-watched (\(cut.read) whole values of \(cut.of)): read up to the cut")
                }
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
        timeline = AccessLogTimeline(sessions: sessions, errors: errorsByGuid)
        let stalls = sessions.reduce(0) { $0.addingClamped($1.stalls) }
        if stalls > AccessLogTimeline.stallLimit {
            warnings.summary("\(stalls) stalls: only the first \(AccessLogTimeline.stallLimit) are replayed")
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
        while next == steps.count {
            guard let session = timeline.nextSession() else { return nil }
            steps = session
            next = 0
        }
        next += 1
        return steps[next - 1]
    }
}
