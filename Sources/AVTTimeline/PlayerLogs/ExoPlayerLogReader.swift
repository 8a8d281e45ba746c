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
    /// A session's first `state BUFFERING` at or past this eventTime (ms since the player was
    /// created) is not its prepare(): apps prepare a player they create within moments, so a
    /// log whose first state comes a minute or more into the player began mid-session.
    static let lateStart = 60_000

    package let name: String
    package internal(set) var settings: TimelineSettings
    /// What the log holds that the exoplayer tracker cannot observe yet.
    package internal(set) var unmapped = PlayerLogCounts()
    /// Sessions (players) seen so far.
    package internal(set) var sessions = 0

    let counting: Bool
    var lines: LineReader
    var warnings: PlayerLogWarnings
    var queue = StepQueue()
    var atEnd = false
    var recognized = 0
    var noise = 0

    // Time.
    var offset = 0
    var lastEventTime = 0
    /// The session's last state line's details (`false, BUFFERING`; `READY`), to tell a repeat.
    var lastStateLine: Substring?
    var lastT = 0
    /// The time of the last step pushed.
    var lastStepT = 0
    var startTimeSet = false
    var sharedWarned = false

    // Sessions and processes.
    var sessionHasEvents = false
    var sessionHasState = false
    /// The session's next step carries `midSession`: its start is not in the log.
    var markNext = false
    /// A session's first `state READY` while playWhenReady is unknown (2.12+ lines), held
    /// until the next step, so that an `isPlaying true` at the same time joins it (ready and
    /// playing at once, as a player already playing) rather than follow a READY paused for no time.
    var heldReady: (t: Int, line: Int, observe: [(ObservationName, JSONValue)])?
    /// The held step is the session's first BUFFERING (2.12+ lines), read as its prepare()
    /// unless an `isPlaying false` follows at once: a player that was playing and stalls.
    var heldIsStart = false
    var pendingInit = false
    var pendingInitPid: Int?
    var pid: Int?
    /// The tracker the current session's steps go to.
    var tracker = 0

    // The player as the log showed it, so only changes become observations.
    var playbackState: String?
    var playWhenReady: Bool?
    var seeking = false
    var duration: Int?
    /// The app released the player (`ExoPlayerImpl Release`): its Stop is already replayed.
    var released = false

    /// The current line's bytes, where a warning may quote them (reused from line to line).
    var lineBytes: [UInt8] = []

    // Multi-line blocks and errors.
    var block: (event: EventLoggerEvent, line: Int)?
    var durationTaken = false
    /// Blocks open inside the block (`group [` … `]` in `tracks [`).
    var nested = 0
    /// An error whose throwable may follow: `fatal` for `playerFailed`, else a non-fatal load or
    /// DRM error (`internalError [T, loadError`), which the player retries.
    var pendingError: PendingError?
    /// A named struct, not a tuple: an optional tuple of strings is copied and destroyed through
    /// the runtime's generic witnesses, on every event line that checks for one.
    struct PendingError {
        var t: Int
        var line: Int
        var name: String
        var code: String?
        var message: String?
        var fatal: Bool
    }
    /// A closed `playerFailed [T]` (before r2.11) whose throwable follows on the next lines.
    var errorAwaitsThrowable = false

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
        while queue.isEmpty, !atEnd { try readLine() }
        return queue.pop()
    }

    // MARK: Lines

    mutating func readLine() throws(TimelineError) {
        let inBlock = block != nil || errorAwaitsThrowable
        let counting = self.counting
        // The line's bytes are copied into one buffer kept from line to line (an array per line
        // was an allocation for every event), taken out of `self` while `lines` reads.
        var kept = lineBytes
        lineBytes = []
        let parsed: (EventLoggerLine, Int, Bool)? = try lines.nextLine { (bytes, number) throws(TimelineError) in
            var line = EventLoggerLine.parse(bytes)
            // State lines are read when counting too: a repeated one is a new player.
            if let event = line.event, !counting && event.isMapped || event == .state {
                line.readDetails(bytes)
            }
            // The bytes are kept only where a warning or an error message may quote them.
            let keep = !counting && (line.kind == .event || line.kind == .other && inBlock)
            kept.removeAll(keepingCapacity: true)
            if keep { kept.append(contentsOf: bytes) }
            return (line, number, keep)
        }
        defer { lineBytes = kept }
        guard let (line, number, isKept) = parsed else {
            finish()
            return
        }
        let bytes = isKept ? kept : nil
        switch line.kind {
        case .event:
            event(line, number: number, text: bytes ?? [])
        case .blockEnd:
            if block != nil, nested > 0 {
                nested -= 1
            } else if let open = block {
                if open.event.isError { flushError() }
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
            release(line, number: number)
        case .other:
            if block != nil, line.opensNested { nested += 1 }
            otherLine(bytes.map { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// Block contents, throwables, other tags' lines.
    mutating func otherLine(_ text: String?) {
        guard let text else {
            noise += 1
            return
        }
        if let open = block, let marker = open.event.durationLine {
            // `  window [12.00, seekable=true, dynamic=false]`: the first window's duration.
            if !durationTaken, let range = text.firstRange(of: marker) {
                durationTaken = true
                let inner = text[range.upperBound...].prefix { $0 != "," && $0 != "]" }
                if let ms = EventLoggerLine.seconds(inner), ms > 0, ms != duration {
                    duration = ms
                    append(t: lastT, line: open.line, [(.duration, .int(ms))])
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

    mutating func event(_ line: EventLoggerLine, number: Int, text: [UInt8]) {
        recognized += 1
        // A new timed event ends what was open: an unterminated block was cut.
        if block != nil, line.eventTime != nil || line.event == .state {
            closeBlock(cutAt: number, text: text)
        } else if block != nil {
            // An untimed `NAME [` inside a block (era ≤ 2.7 has no times) is part of it.
            return
        }
        if line.event != .playerFailed || !line.closed { flushError() }
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
        // A player logs a state line when its state (before r2.12, or playWhenReady) changes: the
        // same state line again near eventTime 0 is another player's first (one created and
        // prepared at the same eventTime as the last, its EventLogger's clock starting again).
        let stateLine = line.event == .state ? Self.stateDetails(line) : nil
        let repeatsState = stateLine != nil && stateLine == lastStateLine
        if stateLine != nil { lastStateLine = stateLine }
        if let eventTime = line.eventTime {
            if pendingInit || eventTime < lastEventTime && eventTime < Self.resetBelow
                || repeatsState && eventTime < Self.resetBelow
            {
                newSession()
                lastStateLine = stateLine
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
        if !line.closed, line.event?.opensBlock != true {
            warnings.line(number, text, "cut before its closing ], skipped")
            return
        }
        if !counting { map(line, t: t, number: number, text: text) }
        if !line.closed, let event = line.event {
            block = (event, number)
            nested = 0
            durationTaken = false
        }
    }

    // MARK: Steps

    mutating func append(t: Int, line: Int, _ observe: [(ObservationName, JSONValue)]) {
        guard !observe.isEmpty else { return }
        flushHeld()
        var observe = observe
        if markNext {
            markNext = false
            observe.insert((.midSession, .bool(true)), at: 0)
        }
        let step = Step(
            t: t, tracker: tracker, observe: observe.map { Observation($0.0, $0.1) },
            origin: StepOrigin(index: queue.nextIndex, location: SourceLocation(line: line, column: 1)))
        queue.push(step)
        lastStepT = max(lastStepT, t)
    }
}
