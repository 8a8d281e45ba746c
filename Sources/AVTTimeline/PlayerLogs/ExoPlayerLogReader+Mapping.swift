import AVTCore
import AVTJSON
import AVTTrackers

/// EventLogger events onto exoplayer observations: one case per event, the table of
/// docs/player-logs.md.
extension ExoPlayerLogReader {
    /// One EventLogger event onto exoplayer observations (docs/player-logs.md has the table).
    mutating func map(_ line: EventLoggerLine, t: Int, number: Int, text: [UInt8]) {
        let details = line.details
        guard let event = line.event else { return }
        switch event {
        case .state:
            guard let last = details.last, let state = Self.state(last) else {
                warnings.line(number, text, "a state line without IDLE, BUFFERING, READY or ENDED, skipped")
                return
            }
            // ≤ r2.11: `state [T, …, playWhenReady, STATE]`.
            let request = details.count >= 2 ? Self.bool(details[details.count - 2]) : nil
            let first = !sessionHasState
            let inferred = inferIfMidSession(
                Self.firstSign(state, eventTime: line.eventTime), t: t, number: number, text: text)
            // One callback gave both: the request first, so that a first `true, BUFFERING` arms
            // the Start on READY (the startup) rather than starting before anything loaded.
            var observe: [(ObservationName, JSONValue)] = []
            if let position = line.mediaPos { observe.append((.contentPosition, .int(position))) }
            if let request, request != playWhenReady { observe.append((.playWhenReady, .bool(request))) }
            if state != playbackState { observe.append((.playbackState, .string(state))) }
            playbackState = state
            if let request { playWhenReady = request }
            if state == "READY" || state == "IDLE" || state == "ENDED" { seeking = false }
            if inferred, state == "READY", playWhenReady == nil {
                heldReady = (t, number, observe)
                return
            }
            if first, !inferred, state == "BUFFERING", request == nil {
                // prepare(), unless the next line says the player stopped playing (see `isPlaying`).
                heldReady = (t, number, observe)
                heldIsStart = true
                return
            }
            append(t: t, line: number, observe)
        case .playWhenReady:
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
            var observe: [(ObservationName, JSONValue)] = [(.playWhenReady, .bool(value))]
            if details.count > 1, Self.playWhenReadyReasons.contains(String(details[1])) {
                observe.append((.playWhenReadyChangeReason, .string(String(details[1]))))
            }
            append(t: t, line: number, observe)
        case .isPlaying:
            // The cleanest "playing" bit, but the state and playWhenReady lines around it say the
            // same: it only tells what a log that starts mid-session was doing, and a
            // playWhenReady the log has not shown (a first `state READY`, then `isPlaying true`).
            let value = details.first.flatMap(Self.bool)
            guard let value else { return }
            if !value, heldIsStart, let held = heldReady, held.t == t {
                startedPlaying(before: held, number: number, text: text)
                return
            }
            if value, var held = heldReady, held.t == t {
                held.observe.append((.playWhenReady, .bool(true)))
                heldReady = held
                playWhenReady = true
            }
            flushHeld()
            inferIfMidSession(value ? .playsNow : .wasPlaying("isPlaying false"), t: t, number: number, text: text)
            if value, playbackState == "READY", playWhenReady == nil {
                playWhenReady = true
                append(t: t, line: number, [(.playWhenReady, .bool(true))])
            } else if value, sessionHasState, playbackState == "BUFFERING" {
                // Playing is READY with playWhenReady (`Player.isPlaying`): a BUFFERING whose READY
                // line the paste lost has ended here, and a later BUFFERING is another rebuffer.
                var observe: [(ObservationName, JSONValue)] = [(.playbackState, .string("READY"))]
                if playWhenReady != true { observe.append((.playWhenReady, .bool(true))) }
                (playbackState, playWhenReady) = ("READY", true)
                append(t: t, line: number, observe)
            }
        case .positionDiscontinuity, .seekStarted:
            seek(line, t: t, number: number, text: text)
        case .playerFailed:
            sessionHasState = true
            let code = details.lazy.compactMap { $0.afterASCIIPrefix("errorCode=") }.first.map(String.init)
            pendingError = PendingError(t: t, line: number, name: event.rawValue, code: code, message: nil, fatal: true)
            errorAwaitsThrowable = line.closed
        case .internalError, .drmSessionManagerError, .loadError, .audioCodecError, .videoCodecError,
            .audioSinkError:
            // Retried by the player: a warning in its log, not a failed playback. PlaybackStats
            // counts load and DRM errors as non-fatal (`onLoadError`, `onDrmSessionManagerError`):
            // they become `loadError`, with the throwable that follows as their message.
            let kind = event == .internalError ? details.first.map(String.init) ?? "" : event.rawValue
            if kind == "loadError" || kind == "drmSessionManagerError" {
                pendingError = PendingError(t: t, line: number, name: kind, code: nil, message: nil, fatal: false)
                errorAwaitsThrowable = line.closed
            } else {
                unmapped.add("internalError \(kind) (non-fatal)")
            }
        case .videoSize, .videoSizeChanged:
            let given = details.prefix(2).map { $0.afterASCIIPrefix("w=") ?? $0.afterASCIIPrefix("h=") ?? $0 }
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
                        .videoSize,
                        Self.object([("width", .int(size.width)), ("height", .int(size.height))], line: number)
                    )
                ])
        case .volume:
            guard let given = details.first, let volume = Double(given), volume >= 0, volume <= 1 else {
                warnings.line(number, text, "a volume outside 0…1, skipped")
                return
            }
            append(t: t, line: number, [(.volume, .double(volume))])
        case .downstreamFormat, .downstreamFormatChanged:
            downstreamFormat(details, t: t, number: number, text: text)
        case .droppedFrames:
            if let given = details.first, isHuge(given, "droppedFrames", number: number, text: text) { return }
            guard let count = details.first.flatMap({ Int($0) }), count >= 0 else {
                warnings.line(number, text, "a droppedFrames line without a count, skipped")
                return
            }
            append(t: t, line: number, [(.droppedFrames, .int(count))])
        case .mediaItem:
            mediaItem(details, t: t, number: number, text: text)
        case .playbackSuppressionReason:
            // Media3 1.0 – 1.1 named UNSUITABLE_AUDIO_OUTPUT UNSUITABLE_AUDIO_ROUTE.
            let given = details.first.map(String.init) ?? ""
            let reason = given == "UNSUITABLE_AUDIO_ROUTE" ? "UNSUITABLE_AUDIO_OUTPUT" : given
            guard Self.suppressionReasons.contains(reason) else {
                unmapped.add("playbackSuppressionReason \(given.isEmpty ? "?" : given)")
                return
            }
            append(t: t, line: number, [(.playbackSuppressionReason, .string(reason))])
        case .videoInputFormat, .audioInputFormat, .decoderInputFormat, .decoderInputFormatChanged,
            .upstreamDiscarded, .audioTrackUnderrun, .surfaceSize, .playbackParameters, .renderedFirstFrame:
            unmapped.add(event.rawValue)
        case .bandwidthEstimate:
            // `onBandwidthEstimate(…, totalLoadTimeMs, totalBytesLoaded, bitrateEstimate)`: the
            // estimate is the last value.
            if let given = details.last, isHuge(given, "bandwidthEstimate", number: number, text: text) { return }
            guard let estimate = details.last.flatMap({ Int($0) }), estimate >= 0 else {
                unmapped.add(event.rawValue)
                return
            }
            append(t: t, line: number, [(.bandwidthEstimate, .int(estimate))])
        default:
            break  // Context: loading, decoders, renderers, DRM, tracks, metadata.
        }
    }

    /// `downstreamFormat [T, …, id=1, mimeType=video/avc, bitrate=2000000, codecs=…, res=1280x720, fps=30.0]`
    /// (`Format.toLogString`). PlaybackStats follows the video format only
    /// (`onDownstreamFormatChanged` for video or default tracks): an audio or text format is not
    /// the picture played, and is left out.
    mutating func downstreamFormat(_ details: [Substring], t: Int, number: Int, text: [UInt8]) {
        var members: [(String, JSONValue)] = []
        var isVideo = true
        for detail in details {
            if let mime = detail.afterASCIIPrefix("mimeType=") {
                // A muxed stream's format (HLS audio and video in one rendition) has no MIME type
                // and is loaded on the default track, which PlaybackStats takes as the video's.
                isVideo = mime.hasASCIIPrefix("video/") || mime == "null"
            } else if let given = detail.afterASCIIPrefix("bitrate=") {
                if isHuge(given, "bitrate", number: number, text: text) { continue }
                if let bitrate = Int(given), bitrate >= 0 { members.append(("bitrate", .int(bitrate))) }
            } else if let given = detail.afterASCIIPrefix("res=") {
                if given.split(separator: "x").contains(where: { isHuge($0, "res", number: number, text: text) }) {
                    continue
                }
                if let size = Self.resolution(given) {
                    members.append(("width", .int(size.width)))
                    members.append(("height", .int(size.height)))
                }
            }
        }
        guard isVideo else { return }
        guard !members.isEmpty else {
            unmapped.add("downstreamFormat without bitrate or res")
            return
        }
        append(t: t, line: number, [(.downstreamFormat, Self.object(members, line: number))])
    }

    /// `mediaItem [T, …, reason=AUTO]` (2.12+): a new item is a new playback. The session's
    /// first item (before the player showed any state) is the playback already begun.
    mutating func mediaItem(_ details: [Substring], t: Int, number: Int, text: [UInt8]) {
        let given = details.lazy.compactMap { $0.afterASCIIPrefix("reason=") }.first.map(String.init) ?? ""
        guard ["AUTO", "SEEK", "PLAYLIST_CHANGED", "REPEAT"].contains(given) else {
            warnings.line(number, text, "a mediaItem line without a known reason, skipped")
            return
        }
        guard playbackState != nil else { return }
        append(t: t, line: number, [(.mediaItemTransition, .string(given))])
    }

    /// `ExoPlayerImpl: Release …`: the app released the player, a Stop, not a failure. The line
    /// has no eventTime: it is read at the previous event's time.
    mutating func release(_ line: EventLoggerLine, number: Int) {
        if let linePid = line.envelope.pid, let pid, linePid != pid { return }
        guard sessionHasEvents, !released, !counting else { return }
        flushError()
        released = true
        append(t: lastT, line: number, [(.release, .bool(true))])
    }

    /// `positionDiscontinuity [T, reason=SEEK, PositionInfo:old […], PositionInfo:new [… pos=MS …]]`
    /// (r2.14+), `positionDiscontinuity [T, SEEK]` (earlier), `seekStarted [T]` (r2.8 – r2.13).
    mutating func seek(_ line: EventLoggerLine, t: Int, number: Int, text: [UInt8]) {
        var observe: [(ObservationName, JSONValue)] = []
        var reason = "SEEK"
        if line.event == .positionDiscontinuity {
            let first = line.details.first ?? ""
            reason = String(first.afterASCIIPrefix("reason=") ?? first)
            if let range = line.detailText.firstRange(of: "PositionInfo:new ["),
                let pos = line.detailText[range.upperBound...].firstRange(of: "pos=")
            {
                let digits = line.detailText[pos.upperBound...].prefix { $0.isASCII && $0.isNumber }
                if !isHuge(digits, "pos", number: number, text: text), let ms = Int(digits) {
                    observe.append((.contentPosition, .int(ms)))
                }
            } else if reason == "SEEK", let position = line.mediaPos {
                // Before r2.14 the event's mediaPos is the position after the jump.
                observe.append((.contentPosition, .int(position)))
            }
        }
        if reason == "SEEK" {
            // A seek first, long after the player was created: the stream was loaded and shown.
            if let eventTime = line.eventTime, eventTime >= Self.lateStart {
                inferIfMidSession(.seekLate(eventTime), t: t, number: number, text: text)
            }
            // Before the first state line the player is IDLE (not prepared): the seek sets where
            // the playback will start. PlaybackStats drops it (`onEvents` clears `isSeeking`
            // unless the player is BUFFERING), so it is the start position, not a seek.
            if !sessionHasState, playbackState == nil {
                append(t: t, line: number, observe)
                return
            }
            if !seeking {
                seeking = true
                observe.append((.seekStarted, .bool(true)))
            }
        } else if reason != "SEEK_ADJUSTMENT" {
            unmapped.add("positionDiscontinuity \(reason)")
        }
        append(t: t, line: number, observe)
    }
}
