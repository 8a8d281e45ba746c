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
    package private(set) var settings: TimelineSettings
    /// What the log holds that the exoplayer tracker cannot observe yet.
    package private(set) var unmapped = PlayerLogCounts()
    /// Sessions (players) seen so far.
    package private(set) var sessions = 0

    private let counting: Bool
    private var lines: LineReader
    private var warnings: PlayerLogWarnings
    private var queue = StepQueue()
    private var atEnd = false
    private var recognized = 0
    private var noise = 0

    // Time.
    private var offset = 0
    private var lastEventTime = 0
    /// The session's last state line's details (`false,BUFFERING`; `READY`), to tell a repeat.
    private var lastStateLine: String?
    private var lastT = 0
    /// The time of the last step pushed.
    private var lastStepT = 0
    private var startTimeSet = false
    private var sharedWarned = false

    // Sessions and processes.
    private var sessionHasEvents = false
    private var sessionHasState = false
    /// The session's next step carries `midSession`: its start is not in the log.
    private var markNext = false
    /// A session's first `state READY` while playWhenReady is unknown (2.12+ lines), held
    /// until the next step, so that an `isPlaying true` at the same time joins it (ready and
    /// playing at once, as a player already playing) rather than follow a READY paused for no time.
    private var heldReady: (t: Int, line: Int, observe: [(String, JSONValue)])?
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
    /// The app released the player (`ExoPlayerImpl Release`): its Stop is already replayed.
    private var released = false

    // Multi-line blocks and errors.
    private var block: (name: String, line: Int)?
    private var durationTaken = false
    /// Blocks open inside the block (`group [` … `]` in `tracks [`).
    private var nested = 0
    /// An error whose throwable may follow: `fatal` for `playerFailed`, else a non-fatal load or
    /// DRM error (`internalError [T, loadError`), which the player retries.
    private var pendingError: (t: Int, line: Int, name: String, code: String?, message: String?, fatal: Bool)?
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
        while queue.isEmpty, !atEnd { try readLine() }
        return queue.pop()
    }

    // MARK: Lines

    private mutating func readLine() throws(TimelineError) {
        let inBlock = block != nil || errorAwaitsThrowable
        let counting = self.counting
        let parsed: (EventLoggerLine, Int, [UInt8]?)? = try lines.nextLine { (bytes, number) throws(TimelineError) in
            var line = EventLoggerLine.parse(bytes)
            // State lines are read when counting too: a repeated one is a new player.
            if line.kind == .event, !counting && Self.mapped.contains(line.name) || line.name == "state" {
                line.readDetails(bytes)
            }
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
            release(line, number: number)
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
        // A player logs a state line when its state (before r2.12, or playWhenReady) changes: the
        // same state line again near eventTime 0 is another player's first (one created and
        // prepared at the same eventTime as the last, its EventLogger's clock starting again).
        let stateLine = line.name == "state" ? line.details.suffix(2).joined(separator: ",") : nil
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
            let inferred = inferIfMidSession(
                Self.firstSign(state, eventTime: line.eventTime), t: t, number: number, text: text)
            // One callback gave both: the request first, so that a first `true, BUFFERING` arms
            // the Start on READY (the startup) rather than starting before anything loaded.
            var observe: [(String, JSONValue)] = []
            if let position = line.mediaPos { observe.append(("contentPosition", .int(position))) }
            if let request, request != playWhenReady { observe.append(("playWhenReady", .bool(request))) }
            if state != playbackState { observe.append(("playbackState", .string(state))) }
            playbackState = state
            if let request { playWhenReady = request }
            if state == "READY" || state == "IDLE" || state == "ENDED" { seeking = false }
            if inferred, state == "READY", playWhenReady == nil {
                heldReady = (t, number, observe)
                return
            }
            append(t: t, line: number, observe)
        case "playWhenReady":
            guard let value = details.first.flatMap(Self.bool) else {
                warnings.line(number, text, "a playWhenReady line without true or false, skipped")
                return
            }
            // A fresh player may be asked to play before prepare(): only false tells.
            inferIfMidSession(value ? .unsettled : .wasPlaying("playWhenReady false"), t: t, number: number, text: text)
            guard value != playWhenReady else { return }
            playWhenReady = value
            // The reason (2.12+) tells a user's request from the player's own change (the end
            // of an item, audio focus): only a user's request arms the tracker's Start.
            var observe: [(String, JSONValue)] = [("playWhenReady", .bool(value))]
            if details.count > 1, Self.playWhenReadyReasons.contains(String(details[1])) {
                observe.append(("playWhenReadyChangeReason", .string(String(details[1]))))
            }
            append(t: t, line: number, observe)
        case "isPlaying":
            // The cleanest "playing" bit, but the state and playWhenReady lines around it say the
            // same: it only tells what a log that starts mid-session was doing, and a
            // playWhenReady the log has not shown (a first `state READY`, then `isPlaying true`).
            let value = details.first.flatMap(Self.bool)
            guard let value else { return }
            if value, var held = heldReady, held.t == t {
                held.observe.append(("playWhenReady", .bool(true)))
                heldReady = held
                playWhenReady = true
            }
            flushHeld()
            inferIfMidSession(value ? .playsNow : .wasPlaying("isPlaying false"), t: t, number: number, text: text)
            if value, playbackState == "READY", playWhenReady == nil {
                playWhenReady = true
                append(t: t, line: number, [("playWhenReady", .bool(true))])
            } else if value, sessionHasState, playbackState == "BUFFERING" {
                // Playing is READY with playWhenReady (`Player.isPlaying`): a BUFFERING whose READY
                // line the paste lost has ended here, and a later BUFFERING is another rebuffer.
                var observe: [(String, JSONValue)] = [("playbackState", .string("READY"))]
                if playWhenReady != true { observe.append(("playWhenReady", .bool(true))) }
                (playbackState, playWhenReady) = ("READY", true)
                append(t: t, line: number, observe)
            }
        case "positionDiscontinuity", "seekStarted":
            seek(line, t: t, number: number, text: text)
        case "playerFailed":
            sessionHasState = true
            let code = details.first { $0.hasPrefix("errorCode=") }.map { String($0.dropFirst(10)) }
            pendingError = (t, number, line.name, code, nil, true)
            errorAwaitsThrowable = line.closed
        case "internalError", "drmSessionManagerError", "loadError", "audioCodecError", "videoCodecError",
            "audioSinkError":
            // Retried by the player: a warning in its log, not a failed playback. PlaybackStats
            // counts load and DRM errors as non-fatal (`onLoadError`, `onDrmSessionManagerError`):
            // they become `loadError`, with the throwable that follows as their message.
            let kind = line.name == "internalError" ? details.first.map(String.init) ?? "" : line.name
            if kind == "loadError" || kind == "drmSessionManagerError" {
                pendingError = (t, number, kind, nil, nil, false)
                errorAwaitsThrowable = line.closed
            } else {
                unmapped.add("internalError \(kind) (non-fatal)")
            }
        case "videoSize", "videoSizeChanged":
            let given = details.prefix(2).map { $0.hasPrefix("w=") || $0.hasPrefix("h=") ? $0.dropFirst(2) : $0 }
            if given.contains(where: { isHuge($0, "videoSize", number: number, text: text) }) { return }
            guard let size = Self.size(details) else {
                warnings.line(number, text, "a video size without width and height, skipped")
                return
            }
            // Logged when the video renderer is disabled (an audio-only selection): no picture,
            // so no height (PlaybackStats then has no video format either).
            if size.width == 0 && size.height == 0 { return }
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
        case "downstreamFormat", "downstreamFormatChanged":
            downstreamFormat(details, t: t, number: number, text: text)
        case "droppedFrames":
            if let given = details.first, isHuge(given, "droppedFrames", number: number, text: text) { return }
            guard let count = details.first.flatMap({ Int($0) }), count >= 0 else {
                warnings.line(number, text, "a droppedFrames line without a count, skipped")
                return
            }
            append(t: t, line: number, [("droppedFrames", .int(count))])
        case "mediaItem":
            mediaItem(details, t: t, number: number, text: text)
        case "playbackSuppressionReason":
            // Media3 1.0 – 1.1 named UNSUITABLE_AUDIO_OUTPUT UNSUITABLE_AUDIO_ROUTE.
            let given = details.first.map(String.init) ?? ""
            let reason = given == "UNSUITABLE_AUDIO_ROUTE" ? "UNSUITABLE_AUDIO_OUTPUT" : given
            guard Self.suppressionReasons.contains(reason) else {
                unmapped.add("playbackSuppressionReason \(given.isEmpty ? "?" : given)")
                return
            }
            append(t: t, line: number, [("playbackSuppressionReason", .string(reason))])
        case "videoInputFormat", "audioInputFormat", "decoderInputFormat", "decoderInputFormatChanged",
            "upstreamDiscarded", "audioTrackUnderrun", "surfaceSize", "playbackParameters", "renderedFirstFrame":
            unmapped.add(line.name)
        case "bandwidthEstimate":
            // `onBandwidthEstimate(…, totalLoadTimeMs, totalBytesLoaded, bitrateEstimate)`: the
            // estimate is the last value.
            if let given = details.last, isHuge(given, "bandwidthEstimate", number: number, text: text) { return }
            guard let estimate = details.last.flatMap({ Int($0) }), estimate >= 0 else {
                unmapped.add(line.name)
                return
            }
            append(t: t, line: number, [("bandwidthEstimate", .int(estimate))])
        default:
            break  // Context: loading, decoders, renderers, DRM, tracks, metadata.
        }
    }

    /// `downstreamFormat [T, …, id=1, mimeType=video/avc, bitrate=2000000, codecs=…, res=1280x720, fps=30.0]`
    /// (`Format.toLogString`). PlaybackStats follows the video format only
    /// (`onDownstreamFormatChanged` for video or default tracks): an audio or text format is not
    /// the picture played, and is left out.
    private mutating func downstreamFormat(_ details: [Substring], t: Int, number: Int, text: [UInt8]) {
        var members: [(String, JSONValue)] = []
        var isVideo = true
        for detail in details {
            if detail.hasPrefix("mimeType=") {
                // A muxed stream's format (HLS audio and video in one rendition) has no MIME type
                // and is loaded on the default track, which PlaybackStats takes as the video's.
                let mime = detail.dropFirst(9)
                isVideo = mime.hasPrefix("video/") || mime == "null"
            } else if detail.hasPrefix("bitrate="), isHuge(detail.dropFirst(8), "bitrate", number: number, text: text) {
                continue
            } else if detail.hasPrefix("bitrate="), let bitrate = Int(detail.dropFirst(8)), bitrate >= 0 {
                members.append(("bitrate", .int(bitrate)))
            } else if detail.hasPrefix("res="),
                detail.dropFirst(4).split(separator: "x").contains(where: {
                    isHuge($0, "res", number: number, text: text)
                })
            {
                continue
            } else if detail.hasPrefix("res="), let size = Self.resolution(detail.dropFirst(4)) {
                members.append(("width", .int(size.width)))
                members.append(("height", .int(size.height)))
            }
        }
        guard isVideo else { return }
        guard !members.isEmpty else {
            unmapped.add("downstreamFormat without bitrate or res")
            return
        }
        append(t: t, line: number, [("downstreamFormat", Self.object(members, line: number))])
    }

    /// `mediaItem [T, …, reason=AUTO]` (2.12+): a new item is a new playback. The session's
    /// first item (before the player showed any state) is the playback already begun.
    private mutating func mediaItem(_ details: [Substring], t: Int, number: Int, text: [UInt8]) {
        let given = details.first { $0.hasPrefix("reason=") }.map { String($0.dropFirst(7)) } ?? ""
        guard ["AUTO", "SEEK", "PLAYLIST_CHANGED", "REPEAT"].contains(given) else {
            warnings.line(number, text, "a mediaItem line without a known reason, skipped")
            return
        }
        guard playbackState != nil else { return }
        append(t: t, line: number, [("mediaItemTransition", .string(given))])
    }

    /// `ExoPlayerImpl: Release …`: the app released the player, a Stop, not a failure. The line
    /// has no eventTime: it is read at the previous event's time.
    private mutating func release(_ line: EventLoggerLine, number: Int) {
        if let linePid = line.envelope.pid, let pid, linePid != pid { return }
        guard sessionHasEvents, !released, !counting else { return }
        flushError()
        released = true
        append(t: lastT, line: number, [("release", .bool(true))])
    }

    /// `positionDiscontinuity [T, reason=SEEK, PositionInfo:old […], PositionInfo:new [… pos=MS …]]`
    /// (r2.14+), `positionDiscontinuity [T, SEEK]` (earlier), `seekStarted [T]` (r2.8 – r2.13).
    private mutating func seek(_ line: EventLoggerLine, t: Int, number: Int, text: [UInt8]) {
        var observe: [(String, JSONValue)] = []
        var reason = "SEEK"
        if line.name == "positionDiscontinuity" {
            let first = line.details.first ?? ""
            reason = String(first.hasPrefix("reason=") ? first.dropFirst(7) : first)
            if let range = line.detailText.firstRange(of: "PositionInfo:new ["),
                let pos = line.detailText[range.upperBound...].firstRange(of: "pos=")
            {
                let digits = line.detailText[pos.upperBound...].prefix { $0.isASCII && $0.isNumber }
                if !isHuge(digits, "pos", number: number, text: text), let ms = Int(digits) {
                    observe.append(("contentPosition", .int(ms)))
                }
            } else if reason == "SEEK", let position = line.mediaPos {
                // Before r2.14 the event's mediaPos is the position after the jump.
                observe.append(("contentPosition", .int(position)))
            }
        }
        if reason == "SEEK" {
            // A seek first, long after the player was created: the stream was loaded and shown.
            if let eventTime = line.eventTime, eventTime >= Self.lateStart {
                inferIfMidSession(.seekLate(eventTime), t: t, number: number, text: text)
            }
            if !seeking {
                seeking = true
                observe.append(("seekStarted", .bool(true)))
            }
        } else if reason != "SEEK_ADJUSTMENT" {
            unmapped.add("positionDiscontinuity \(reason)")
        }
        append(t: t, line: number, observe)
    }

    /// What a session's first line about the player's state says of the time before the log.
    private enum FirstSign {
        /// `state BUFFERING`: prepare(), the start of a playback.
        case start
        /// Nothing yet: `playWhenReady true` (a fresh player may be asked to play before
        /// prepare()), `state IDLE` (up to r2.11 a state line is printed for that request too).
        case unsettled
        /// It was playing before the line: `isPlaying false`, `playWhenReady false`, `state ENDED`.
        case wasPlaying(String)
        /// It plays from the line on (`isPlaying true`): loaded, ready, play requested.
        case playsNow
        /// The stream was loaded before (`state READY`).
        case loaded
        /// `state BUFFERING` long after the player was created (`lateStart`): a rebuffer, a seek
        /// or a new item of a session already under way, not its prepare().
        case bufferingLate(Int)
        /// A seek long after the player was created: a viewer seeking what was playing.
        case seekLate(Int)
    }

    private static func firstSign(_ state: String, eventTime: Int?) -> FirstSign {
        switch state {
        case "BUFFERING":
            if let eventTime, eventTime >= lateStart { return .bufferingLate(eventTime) }
            return .start
        case "READY": return .loaded
        case "ENDED": return .wasPlaying("state ENDED")
        default: return .unsettled
        }
    }

    /// A log that starts in the middle of a session. A fresh player's first state other than
    /// IDLE (the state it is created in) is BUFFERING (prepare()), and its first isPlaying or
    /// playWhenReady change can only be to true. So a session whose first state line is READY or
    /// ENDED, or whose first change is `isPlaying false`, `playWhenReady false` or `isPlaying
    /// true` before any state line, began before the log.
    /// When it was playing, two steps at the line's time make it so (a stream loaded, ready,
    /// play requested); READY first gets the load before it. The log does not show the startup:
    /// the session's first step carries `midSession`, and `kpi` leaves its startup out rather
    /// than measure a join of 0.
    ///
    /// Returns whether it inferred that the session began before the log.
    @discardableResult
    private mutating func inferIfMidSession(_ sign: FirstSign, t: Int, number: Int, text: [UInt8]) -> Bool {
        guard !sessionHasState else { return false }
        let inferred: String
        switch sign {
        case .unsettled:
            return false
        case .start:
            sessionHasState = true
            return false
        case .wasPlaying(let firstSays):
            inferred = "(\(firstSays) first): inferred the player was playing before"
        case .playsNow:
            inferred = "(isPlaying true first): inferred the stream was loaded and plays from there"
        case .loaded:
            inferred = "(state READY first, without the BUFFERING of its start): inferred the stream was loaded before"
        case .bufferingLate(let eventTime):
            inferred =
                "(its first state, BUFFERING, is at eventTime \(Self.seconds(eventTime)) s, long after the player was created): inferred the stream was loaded before"
        case .seekLate(let eventTime):
            inferred =
                "(a seek first, at eventTime \(Self.seconds(eventTime)) s, long after the player was created): inferred the player was playing before"
        }
        sessionHasState = true
        markNext = true
        warnings.line(number, text, "the log starts mid-session \(inferred); its startup is not in the log")
        switch sign {
        case .wasPlaying, .playsNow, .seekLate:
            append(t: t, line: number, [("playbackState", .string("BUFFERING"))])
            append(t: t, line: number, [("playbackState", .string("READY")), ("playWhenReady", .bool(true))])
            playbackState = "READY"
            playWhenReady = true
        default:
            append(t: t, line: number, [("playbackState", .string("BUFFERING"))])
            playbackState = "BUFFERING"
        }
        return true
    }

    /// `1668.52` for an eventTime of 1668520 ms (EventLogger's 10 ms resolution).
    private static func seconds(_ eventTime: Int) -> String {
        "\(eventTime / 1000).\(String(eventTime % 1000 / 10 + 100).dropFirst())"
    }

    /// The held first READY goes out as it is (see `heldReady`).
    private mutating func flushHeld() {
        guard let held = heldReady else { return }
        heldReady = nil
        append(t: held.t, line: held.line, held.observe)
    }

    private mutating func newSession() {
        flushError()
        flushHeld()
        if sessionHasEvents {
            // The previous player's playback ends here; the next is a new playbackId.
            if !released {
                var stop = Step(t: lastT, tracker: tracker, origin: StepOrigin(index: queue.nextIndex))
                stop.action = .stop
                queue.push(stop)
            }
            sessions += 1
            if sessions > settings.trackers.count, tracker == settings.trackers.count - 1, !sharedWarned {
                sharedWarned = true
                warnings.summary(PlayerLogTrackers.sharedWarning(trackers: settings.trackers.count))
            }
            tracker = min(sessions, settings.trackers.count) - 1
        }
        offset = lastT
        lastEventTime = 0
        lastStateLine = nil
        pendingInit = false
        sessionHasState = false
        markNext = false
        playbackState = nil
        playWhenReady = nil
        seeking = false
        duration = nil
        released = false
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
            [(error.fatal ? "playerError" : "loadError", message.isEmpty ? .string(error.name) : .string(message))])
    }

    private mutating func finish() {
        atEnd = true
        flushError()
        flushHeld()
        // The log's knowledge ends at its last EventLogger line, not at its last step: a step of
        // nothing there keeps the time after the last state change (playing, buffering) in the
        // replay. (A session followed by another ends with its Stop there already.)
        if sessionHasEvents, !released, lastT > lastStepT {
            queue.push(Step(t: lastT, tracker: tracker, origin: StepOrigin(index: queue.nextIndex)))
        }
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
        flushHeld()
        var observe = observe
        if markNext {
            markNext = false
            observe.insert((MidSession.key, .bool(true)), at: 0)
        }
        let step = Step(
            t: t, tracker: tracker, observe: observe.map { Observation($0.0, $0.1) },
            origin: StepOrigin(index: queue.nextIndex, location: SourceLocation(line: line, column: 1)))
        queue.push(step)
        lastStepT = max(lastStepT, t)
    }

    // MARK: Values

    /// The events whose details the mapping reads.
    static let mapped: Set<String> = [
        "state", "playWhenReady", "isPlaying", "positionDiscontinuity", "seekStarted", "playerFailed", "internalError",
        "videoSize", "videoSizeChanged", "volume", "droppedFrames", "downstreamFormat", "downstreamFormatChanged",
        "mediaItem",
        "playbackSuppressionReason", "bandwidthEstimate",
    ]

    /// `Player.PLAY_WHEN_READY_CHANGE_REASON_*` names (EventLogger prints them as is).
    static let playWhenReadyReasons: Set<String> = [
        "USER_REQUEST", "AUDIO_FOCUS_LOSS", "AUDIO_BECOMING_NOISY", "REMOTE", "END_OF_MEDIA_ITEM",
        "SUPPRESSED_TOO_LONG",
    ]

    /// `Player.PLAYBACK_SUPPRESSION_REASON_*` names the exoplayer tracker takes.
    static let suppressionReasons: Set<String> = [
        "NONE", "TRANSIENT_AUDIO_FOCUS_LOSS", "UNSUITABLE_AUDIO_OUTPUT", "SCRUBBING",
    ]

    /// Whether `value` is an integer past 2^53 − 1 (said, with the line): no field holds it
    /// exactly, and read as it is it made wrong KPIs (a bitrate of 2^63 − 1). The caller skips
    /// the field, or the entry it is all of, and reads on, as the access-log reader does with
    /// `nan` and `inf`.
    private mutating func isHuge(_ value: Substring, _ what: String, number: Int, text: [UInt8]) -> Bool {
        guard Self.isHugeInteger(value) else { return false }
        warnings.line(number, text, "\(what) \"\(value)\" is no usable number (past 2^53 − 1), skipped")
        return true
    }

    /// Digits (and an optional sign) of an integer past ±(2^53 − 1), whether `Int` holds it or not.
    static func isHugeInteger(_ text: Substring) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        guard let value = Int(digits) else { return true }
        return value > JSONValue.maxExactInteger
    }

    /// `1280x720` (`Format.toLogString`'s `res=`).
    static func resolution(_ text: Substring) -> (width: Int, height: Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 0, height >= 0 else {
            return nil
        }
        return (width, height)
    }

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
