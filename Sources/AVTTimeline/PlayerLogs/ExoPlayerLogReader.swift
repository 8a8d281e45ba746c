import AVTCore
import AVTJSON
import AVTTrackers

/// ExoPlayer / Media3 `EventLogger` output from logcat, read as a timeline with one `exoplayer`
/// tracker named `content` (docs/player-logs.md). Streamed line by line: memory stays constant
/// whatever the log's length.
///
/// - **Time.** `eventTime` (seconds since the EventLogger was created, 10 ms resolution) is the
///   virtual time. The logcat time of the first event line, when the layout shows it, minus its
///   eventTime gives `startTime` (logcat prints no year: `LogcatEnvelope.defaultYear`).
/// - **Sessions.** An eventTime that goes back to under a second, or an `ExoPlayerImpl` Init
///   line, starts a new player: the previous playback gets a `Stop` and the new one is laid on
///   the virtual clock right after it.
/// - **Messy logs.** Lines of other tags and processes are skipped; lines that look like
///   EventLogger lines but cannot be read, a cut last line and any inferred state are warned
///   about with the line, and reading goes on.
package struct ExoPlayerLogReader: TimelineSource {
    /// An eventTime that goes back to below this (ms) is a new EventLogger, i.e. a new player.
    static let resetBelow = 1000

    package let name: String
    package private(set) var settings: TimelineSettings
    /// What the log holds that the exoplayer tracker cannot observe yet.
    package private(set) var unmapped = PlayerLogCounts()
    /// Sessions (players) seen so far.
    package private(set) var sessions = 0

    private let counting: Bool
    private var lines: LineReader
    private var warnings: PlayerLogWarnings
    private var queue: [Step] = []
    private var queueHead = 0
    private var stepIndex = 0
    private var atEnd = false
    private var recognized = 0
    private var noise = 0

    // Time.
    private var offset = 0
    private var lastEventTime = 0
    private var lastT = 0
    private var startTimeSet = false
    private var sharedWarned = false

    // Sessions and processes.
    private var sessionHasEvents = false
    private var sessionHasState = false
    private var pendingInit = false
    private var pendingInitPid: Int?
    private var pid: Int?
    /// The tracker the current session's steps go to.
    private var tracker = 0

    // The player as the log showed it, so only changes become observations.
    private var playbackState: String?
    private var playWhenReady: Bool?
    private var seeking = false
    private var duration: Int?

    // Multi-line blocks and errors.
    private var block: (name: String, line: Int)?
    private var durationTaken = false
    /// Blocks open inside the block (`group [` … `]` in `tracks [`).
    private var nested = 0
    private var pendingError: (t: Int, line: Int, name: String, code: String?, message: String?)?
    /// A closed `playerFailed [T]` (before r2.11) whose throwable follows on the next lines.
    private var errorAwaitsThrowable = false

    /// - Parameter sessions: how many sessions the log holds (`countSessions`), one tracker each.
    package init(
        _ input: ByteInput, sessions trackers: Int = 1,
        warn: @escaping (String) -> Void = PlayerLogWarnings.standardError
    ) throws(TimelineError) {
        try self.init(input, sessions: trackers, counting: false, warn: warn)
    }

    /// `counting`: only the sessions are followed (no details, no steps), for `countSessions`.
    private init(_ input: ByteInput, sessions trackers: Int, counting: Bool, warn: @escaping (String) -> Void)
        throws(TimelineError)
    {
        self.counting = counting
        name = input.name
        lines = LineReader(input)
        warnings = PlayerLogWarnings(file: input.name, warn: warn)
        var settings = TimelineSettings()
        settings.trackers = PlayerLogTrackers.specs(trackers, kind: .exoplayer)
        self.settings = settings
        // Reads up to the first step, so the settings (startTime) are known before any step.
        while queue.isEmpty, !atEnd { try readLine() }
        if recognized == 0 {
            throw TimelineError(
                file: input.name,
                message:
                    "no ExoPlayer EventLogger lines: expected logcat lines such as \"D EventLogger: state [eventTime=0.51, mediaPos=0.00, window=0, BUFFERING]\""
            )
        }
    }

    /// The sessions in a log (a second opening of the file): a first pass, warnings discarded, no
    /// details read.
    package static func countSessions(_ input: ByteInput) throws(TimelineError) -> Int {
        var reader = try ExoPlayerLogReader(input, sessions: 1, counting: true, warn: { _ in })
        while try reader.nextStep() != nil {}
        return reader.sessions
    }

    package mutating func nextStep() throws(TimelineError) -> Step? {
        while queueHead == queue.count, !atEnd { try readLine() }
        guard queueHead < queue.count else { return nil }
        let step = queue[queueHead]
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        return step
    }

    // MARK: Lines

    private mutating func readLine() throws(TimelineError) {
        let inBlock = block != nil || errorAwaitsThrowable
        let counting = self.counting
        let parsed: (EventLoggerLine, Int, [UInt8]?)? = try lines.nextLine { (bytes, number) throws(TimelineError) in
            var line = EventLoggerLine.parse(bytes)
            if !counting, line.kind == .event, Self.mapped.contains(line.name) { line.readDetails(bytes) }
            // The bytes are kept only where a warning or an error message may quote them.
            let keep = !counting && (line.kind == .event || line.kind == .other && inBlock)
            return (line, number, keep ? Array(bytes) : nil)
        }
        guard let (line, number, bytes) = parsed else {
            finish()
            return
        }
        switch line.kind {
        case .event:
            event(line, number: number, text: bytes ?? [])
        case .blockEnd:
            if block != nil, nested > 0 {
                nested -= 1
            } else if let open = block {
                if open.name == "playerFailed" || open.name == "internalError" { flushError() }
                block = nil
            } else {
                noise += 1
            }
        case .playerInit:
            recognized += 1
            closeBlock(cutAt: number, text: nil)
            flushError()
            if sessionHasEvents {
                pendingInit = true
                pendingInitPid = line.envelope.pid
            } else if let initPid = line.envelope.pid {
                pid = initPid
            }
        case .playerRelease:
            recognized += 1
            unmapped.add("ExoPlayerImpl Release")
        case .other:
            if block != nil, line.opensNested { nested += 1 }
            otherLine(bytes.map { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// Block contents, throwables, other tags' lines.
    private mutating func otherLine(_ text: String?) {
        guard let text else {
            noise += 1
            return
        }
        if let open = block, open.name == "timeline" {
            // `  window [12.00, seekable=true, dynamic=false]`: the first window's duration.
            if !durationTaken, let range = text.firstRange(of: "window [") {
                durationTaken = true
                let inner = text[range.upperBound...].prefix { $0 != "," && $0 != "]" }
                if let ms = EventLoggerLine.seconds(inner), ms > 0, ms != duration {
                    duration = ms
                    append(t: lastT, line: open.line, [("duration", .int(ms))])
                }
            }
            return
        }
        if pendingError != nil, pendingError?.message == nil, let message = Self.throwableMessage(text) {
            pendingError?.message = message
            return
        }
        if block == nil, !errorAwaitsThrowable { noise += 1 }
    }

    private mutating func event(_ line: EventLoggerLine, number: Int, text: [UInt8]) {
        recognized += 1
        // A new timed event ends what was open: an unterminated block was cut.
        if block != nil, line.eventTime != nil || line.name == "state" {
            closeBlock(cutAt: number, text: text)
        } else if block != nil {
            // An untimed `NAME [` inside a block (era ≤ 2.7 has no times) is part of it.
            return
        }
        if line.name != "playerFailed" || !line.closed { flushError() }
        if let linePid = line.envelope.pid {
            if pid == nil { pid = linePid }
            if linePid != pid {
                let restarts = line.eventTime.map { $0 < Self.resetBelow } ?? false
                guard pendingInit && pendingInitPid == linePid || restarts else {
                    warnings.line(number, text, "another process's EventLogger line (pid \(linePid)), skipped")
                    return
                }
                pid = linePid
                pendingInit = true
            }
        }
        let t: Int
        if let eventTime = line.eventTime {
            if pendingInit || eventTime < lastEventTime && eventTime < Self.resetBelow {
                newSession()
            } else if eventTime < lastEventTime {
                warnings.line(number, text, "eventTime goes back, read at the previous line's time")
            }
            t = max(lastT, min(offset + eventTime, FieldReader.maxMilliseconds))
            lastEventTime = max(lastEventTime, eventTime)
            if !startTimeSet, let wall = line.envelope.wallClock {
                startTimeSet = true
                settings.startTime = wall - eventTime
            }
        } else {
            t = lastT
        }
        if !sessionHasEvents {
            sessionHasEvents = true
            if sessions == 0 { sessions = 1 }
        }
        lastT = t
        let opensBlock = !line.closed
        if opensBlock, !["timeline", "tracks", "metadata", "playerFailed", "internalError"].contains(line.name) {
            warnings.line(number, text, "cut before its closing ], skipped")
            return
        }
        if !counting { map(line, t: t, number: number, text: text) }
        if opensBlock {
            block = (line.name, number)
            nested = 0
            durationTaken = false
        }
    }

    /// One EventLogger event onto exoplayer observations (docs/player-logs.md has the table).
    private mutating func map(_ line: EventLoggerLine, t: Int, number: Int, text: [UInt8]) {
        let details = line.details
        switch line.name {
        case "state":
            guard let last = details.last, let state = Self.state(last) else {
                warnings.line(number, text, "a state line without IDLE, BUFFERING, READY or ENDED, skipped")
                return
            }
            // ≤ r2.11: `state [T, …, playWhenReady, STATE]`.
            let request = details.count >= 2 ? Self.bool(details[details.count - 2]) : nil
            inferIfMidSession(firstSays: nil, t: t, number: number, text: text)
            // One callback gave both: the request first, so that a first `true, BUFFERING` arms
            // the Start on READY (the startup) rather than starting before anything loaded.
            var observe: [(String, JSONValue)] = []
            if let position = line.mediaPos { observe.append(("contentPosition", .int(position))) }
            if let request, request != playWhenReady { observe.append(("playWhenReady", .bool(request))) }
            if state != playbackState { observe.append(("playbackState", .string(state))) }
            playbackState = state
            if let request { playWhenReady = request }
            if state == "READY" || state == "IDLE" || state == "ENDED" { seeking = false }
            append(t: t, line: number, observe)
        case "playWhenReady":
            guard let value = details.first.flatMap(Self.bool) else {
                warnings.line(number, text, "a playWhenReady line without true or false, skipped")
                return
            }
            inferIfMidSession(firstSays: value ? nil : "playWhenReady false", t: t, number: number, text: text)
            if !value, details.count > 1, details[1] == "END_OF_MEDIA_ITEM" {
                // The player pausing itself at the end of an item is not a user's pause.
                unmapped.add("playWhenReady false END_OF_MEDIA_ITEM")
                return
            }
            guard value != playWhenReady else { return }
            playWhenReady = value
            append(t: t, line: number, [("playWhenReady", .bool(value))])
        case "isPlaying":
            // The cleanest "playing" bit, but the state and playWhenReady lines around it say the
            // same: it only tells what a log that starts mid-session was doing before.
            let value = details.first.flatMap(Self.bool)
            inferIfMidSession(firstSays: value == false ? "isPlaying false" : nil, t: t, number: number, text: text)
        case "positionDiscontinuity", "seekStarted":
            seek(line, t: t, number: number)
        case "playerFailed":
            sessionHasState = true
            let code = details.first { $0.hasPrefix("errorCode=") }.map { String($0.dropFirst(10)) }
            pendingError = (t, number, line.name, code, nil)
            errorAwaitsThrowable = line.closed
        case "internalError", "drmSessionManagerError", "loadError", "audioCodecError", "videoCodecError",
            "audioSinkError":
            // Retried by the player: a warning in its log, not a failed playback.
            let kind = line.name == "internalError" ? details.first.map(String.init) ?? "" : line.name
            unmapped.add("internalError \(kind) (non-fatal)")
        case "videoSize", "videoSizeChanged":
            guard let size = Self.size(details) else {
                warnings.line(number, text, "a video size without width and height, skipped")
                return
            }
            append(
                t: t, line: number,
                [
                    (
                        "videoSize",
                        Self.object([("width", .int(size.width)), ("height", .int(size.height))], line: number)
                    )
                ])
        case "volume":
            guard let given = details.first, let volume = Double(given), volume >= 0, volume <= 1 else {
                warnings.line(number, text, "a volume outside 0…1, skipped")
                return
            }
            append(t: t, line: number, [("volume", .double(volume))])
        case "downstreamFormat", "videoInputFormat", "audioInputFormat", "decoderInputFormat",
            "decoderInputFormatChanged", "upstreamDiscarded", "mediaItem", "audioTrackUnderrun", "surfaceSize",
            "playbackParameters", "playbackSuppressionReason", "renderedFirstFrame", "bandwidthEstimate":
            unmapped.add(line.name)
        case "droppedFrames":
            unmapped.add("droppedFrames lines")
            if let count = details.first.flatMap({ Int($0) }) { unmapped.add("droppedFrames (frames)", count) }
        default:
            break  // Context: loading, decoders, renderers, DRM, tracks, metadata.
        }
    }

    /// `positionDiscontinuity [T, reason=SEEK, PositionInfo:old […], PositionInfo:new [… pos=MS …]]`
    /// (r2.14+), `positionDiscontinuity [T, SEEK]` (earlier), `seekStarted [T]` (r2.8 – r2.13).
    private mutating func seek(_ line: EventLoggerLine, t: Int, number: Int) {
        var observe: [(String, JSONValue)] = []
        var reason = "SEEK"
        if line.name == "positionDiscontinuity" {
            let first = line.details.first ?? ""
            reason = String(first.hasPrefix("reason=") ? first.dropFirst(7) : first)
            if let range = line.detailText.firstRange(of: "PositionInfo:new ["),
                let pos = line.detailText[range.upperBound...].firstRange(of: "pos=")
            {
                let digits = line.detailText[pos.upperBound...].prefix { $0.isASCII && $0.isNumber }
                if let ms = Int(digits) { observe.append(("contentPosition", .int(ms))) }
            } else if reason == "SEEK", let position = line.mediaPos {
                // Before r2.14 the event's mediaPos is the position after the jump.
                observe.append(("contentPosition", .int(position)))
            }
        }
        if reason == "SEEK" {
            if !seeking {
                seeking = true
                observe.append(("seekStarted", .bool(true)))
            }
        } else if reason != "SEEK_ADJUSTMENT" {
            unmapped.add("positionDiscontinuity \(reason)")
        }
        append(t: t, line: number, observe)
    }

    /// A log that starts in the middle of a session: when the first line that tells the player's
    /// state says it stopped playing (`isPlaying false`, `playWhenReady false`), it was playing
    /// before. Two steps at the line's time make it so (a stream loaded, ready, play requested);
    /// the log does not show the startup, so its startup time is 0 and means nothing.
    private mutating func inferIfMidSession(firstSays: String?, t: Int, number: Int, text: [UInt8]) {
        guard !sessionHasState else { return }
        sessionHasState = true
        guard let firstSays else { return }
        warnings.line(
            number, text,
            "the log starts mid-session (\(firstSays) first): inferred the player was playing before; its startup is not in the log"
        )
        append(t: t, line: number, [("playbackState", .string("BUFFERING"))])
        append(t: t, line: number, [("playbackState", .string("READY")), ("playWhenReady", .bool(true))])
        playbackState = "READY"
        playWhenReady = true
    }

    private mutating func newSession() {
        flushError()
        if sessionHasEvents {
            // The previous player's playback ends here; the next is a new playbackId.
            var stop = Step(t: lastT, tracker: tracker, origin: StepOrigin(index: stepIndex))
            stop.action = .stop
            enqueue(stop)
            sessions += 1
            if sessions > settings.trackers.count, tracker == settings.trackers.count - 1, !sharedWarned {
                sharedWarned = true
                warnings.summary(PlayerLogTrackers.sharedWarning(trackers: settings.trackers.count))
            }
            tracker = min(sessions, settings.trackers.count) - 1
        }
        offset = lastT
        lastEventTime = 0
        pendingInit = false
        sessionHasState = false
        playbackState = nil
        playWhenReady = nil
        seeking = false
        duration = nil
    }

    private mutating func closeBlock(cutAt number: Int, text: [UInt8]?) {
        guard let open = block else { return }
        if open.name == "playerFailed" || open.name == "internalError" {
            flushError()
        } else if let text {
            warnings.line(number, text, "the \(open.name) block of line \(open.line) has no closing ]")
        }
        block = nil
    }

    private mutating func flushError() {
        errorAwaitsThrowable = false
        guard let error = pendingError else { return }
        pendingError = nil
        let message = [error.code, error.message].compactMap { $0 }.joined(separator: ": ")
        append(
            t: error.t, line: error.line,
            [("playerError", message.isEmpty ? .string(error.name) : .string(message))])
    }

    private mutating func finish() {
        atEnd = true
        flushError()
        if let open = block, open.name != "playerFailed", open.name != "internalError" {
            warnings.summary("the \(open.name) block of line \(open.line) is cut at the end of the log")
        }
        block = nil
        warnings.finish()
        guard recognized > 0 else { return }
        if noise > 0 {
            warnings.summary(
                "skipped \(noise) lines that are not EventLogger events (other tags, processes, stack traces)")
        }
        if !unmapped.isEmpty {
            warnings.summary("not replayed (the exoplayer tracker has no observation for them): \(unmapped.text)")
        }
    }

    // MARK: Steps

    private mutating func append(t: Int, line: Int, _ observe: [(String, JSONValue)]) {
        guard !observe.isEmpty else { return }
        let step = Step(
            t: t, tracker: tracker, observe: observe.map { Observation($0.0, $0.1) },
            origin: StepOrigin(index: stepIndex, location: SourceLocation(line: line, column: 1)))
        enqueue(step)
    }

    private mutating func enqueue(_ step: Step) {
        var step = step
        step.origin.index = stepIndex
        // Steps never go back: a pending error flushed late keeps its own time only if in order.
        step.t = max(step.t, queue.last?.t ?? 0)
        stepIndex += 1
        queue.append(step)
    }

    // MARK: Values

    /// The events whose details the mapping reads.
    static let mapped: Set<String> = [
        "state", "playWhenReady", "isPlaying", "positionDiscontinuity", "seekStarted", "playerFailed", "internalError",
        "videoSize", "videoSizeChanged", "volume", "droppedFrames",
    ]

    static func state(_ token: Substring) -> String? {
        switch token {
        case "IDLE", "I": return "IDLE"
        case "BUFFERING", "B": return "BUFFERING"
        case "READY", "R": return "READY"
        case "ENDED", "E": return "ENDED"
        default: return nil
        }
    }

    static func bool(_ token: Substring) -> Bool? {
        token == "true" ? true : token == "false" ? false : nil
    }

    /// `W, H` (≤ Media3 1.7) or `w=W, h=H(, par=…)` (1.8+).
    static func size(_ details: [Substring]) -> (width: Int, height: Int)? {
        guard details.count >= 2 else { return nil }
        let w = details[0].hasPrefix("w=") ? details[0].dropFirst(2) : details[0]
        let h = details[1].hasPrefix("h=") ? details[1].dropFirst(2) : details[1]
        guard let width = Int(w), let height = Int(h), width >= 0, height >= 0 else { return nil }
        return (width, height)
    }

    /// `com.example.SomeException: message` out of a throwable line (`\tat …` frames are not).
    static func throwableMessage(_ text: String) -> String? {
        guard let range = text.firstRange(of: "Exception") ?? text.firstRange(of: "Error") else { return nil }
        if text.contains("\tat ") || text.contains(" at ") && text.hasSuffix(")") { return nil }
        // Back to the start of the dotted class name.
        var start = range.lowerBound
        while start > text.startIndex {
            let before = text[text.index(before: start)]
            guard before.isLetter || before.isNumber || before == "." || before == "$" || before == "_" else { break }
            start = text.index(before: start)
        }
        let message = text[start...].reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return message.isEmpty ? nil : String(String(message).prefix(500))
    }

    static func object(_ members: [(String, JSONValue)], line: Int) -> JSONValue {
        .object(members.map { JSONMember(key: $0.0, node: JSONNode($0.1, at: SourceLocation(line: line, column: 1))) })
    }
}
