/// One logcat line as ExoPlayer's `EventLogger` writes it, found by its message
/// (`NAME [EVENTTIME, DETAILS]`), not by its tag: the tag is a constructor argument and the
/// envelope depends on the tool the log was copied from.
///
/// Event times by era (the message's first tokens):
/// - ≤ r2.7: `state [3.22, true, B]` (seconds, playWhenReady, I/B/R/E); other lines carry none.
/// - r2.8 – r2.10: `[1.96, 0.00, window=0, period=0, DETAILS]` (eventTime, mediaPos unlabelled).
/// - r2.11 – Media3: `[eventTime=1.96, mediaPos=0.00, window=0, period=0, DETAILS]`.
package struct EventLoggerLine {
    package enum Kind: Equatable {
        /// `NAME [` with a known event name.
        case event
        /// A lone `]` that closes a block (`timeline [`, `tracks [`, a throwable).
        case blockEnd
        /// `ExoPlayerImpl: Init <hash> [ExoPlayerLib/…]`: a new player.
        case playerInit
        /// `ExoPlayerImpl: Release <hash> […]`.
        case playerRelease
        /// Anything else: other tags, block contents, stack traces.
        case other
    }

    package var kind: Kind
    package var name = ""
    package var envelope = LogcatEnvelope.none
    /// Milliseconds since the EventLogger was created; nil when the line carries none.
    package var eventTime: Int?
    /// The event's media position, ms; nil when unknown (`?`) or not given.
    package var mediaPos: Int?
    /// The tokens after the event time (`window=`, `period=`, `adGroup=`, `ad=` left out).
    package var details: [Substring] = []
    /// Everything inside the brackets after the event time, for details with commas of their own.
    package var detailText: Substring = ""
    /// Whether the brackets close on this line (else a block or a throwable follows).
    package var closed = false
    /// Where the message starts in the line (the envelope is before it).
    package var messageStart = 0

    /// Event names EventLogger has written in any version; a `NAME [` with another name is not
    /// an EventLogger line.
    package static let names: Set<String> = [
        "state", "playWhenReady", "isPlaying", "playbackSuppressionReason", "positionDiscontinuity", "seekStarted",
        "seekProcessed", "mediaItem", "playerFailed", "internalError", "renderedFirstFrame", "videoSize",
        "videoSizeChanged", "downstreamFormat", "upstreamDiscarded", "videoInputFormat", "audioInputFormat",
        "decoderInputFormat", "decoderInputFormatChanged", "droppedFrames", "loading", "audioEnabled", "audioDisabled",
        "videoEnabled", "videoDisabled", "decoderEnabled", "decoderDisabled", "decoderInitialized",
        "audioDecoderInitialized", "videoDecoderInitialized", "audioDecoderReleased", "videoDecoderReleased",
        "audioTrackUnderrun", "surfaceSize", "volume", "playbackParameters", "rendererReady", "audioPositionAdvancing",
        "drmSessionAcquired", "drmSessionReleased", "drmKeysLoaded", "drmKeysRestored", "drmKeysRemoved",
        "drmSessionManagerError", "timeline", "tracks", "metadata", "repeatMode", "shuffleModeEnabled",
        "audioSessionId", "audioAttributes", "skipSilenceEnabled", "mediaPeriodCreated", "mediaPeriodReleased",
        "readingStarted", "bandwidthEstimate", "loadError", "playerError", "trackSelectionParameters",
        "audioCodecError", "videoCodecError", "audioSinkError", "videoFrameProcessingOffset", "cues",
        "playlistMetadata", "mediaMetadata", "deviceInfo", "deviceVolume",
    ]

    /// Events whose only detail, in the oldest versions, is the event time.
    static let timeOnly: Set<String> = ["playerFailed", "seekStarted", "seekProcessed"]

    /// Reads a line; `.other` when it is not an EventLogger line.
    package static func parse(_ b: UnsafeBufferPointer<UInt8>) -> EventLoggerLine {
        var line = EventLoggerLine(kind: .other)
        // Trailing blanks (Studio pads, editors keep `\r`) are not part of the message.
        var end = b.count
        while end > 0, b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0x0D { end -= 1 }
        var i = 2
        while i < end {
            if b[i] == 0x5B, b[i - 1] == 0x20, isLetter(b[i - 2]) {
                var start = i - 2
                while start > 0, isLetter(b[start - 1]) { start -= 1 }
                if start == 0 || [0x20, 0x09, 0x3A, 0x29, 0x2F].contains(b[start - 1]),
                    let name = knownName(b, start, i - 1)
                {
                    line.kind = .event
                    line.name = name
                    line.messageStart = start
                    line.envelope = LogcatEnvelope(b, end: start)
                    line.readContent(b, from: i + 1, end: end)
                    return line
                }
            }
            i += 1
        }
        if end > 0, b[end - 1] == 0x5D, end == 1 || [0x20, 0x09, 0x3A].contains(b[end - 2]) {
            line.kind = .blockEnd
            return line
        }
        if let marker = find(b, "[ExoPlayerLib/", end: end) ?? find(b, "[AndroidXMedia3/", end: end) {
            let head = String(decoding: UnsafeBufferPointer(rebasing: b[0..<marker]), as: UTF8.self)
            if head.contains("Init ") {
                line.kind = .playerInit
            } else if head.contains("Release ") {
                line.kind = .playerRelease
            }
            line.envelope = LogcatEnvelope(b, end: marker)
        }
        return line
    }

    /// The bracket's content up to its matching `]`, then the event time header.
    private mutating func readContent(_ b: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) {
        var depth = 1
        var close = end
        var i = start
        while i < end {
            if b[i] == 0x5B {
                depth += 1
            } else if b[i] == 0x5D {
                depth -= 1
                if depth == 0 {
                    close = i
                    break
                }
            }
            i += 1
        }
        closed = depth == 0
        let content = String(decoding: UnsafeBufferPointer(rebasing: b[start..<close]), as: UTF8.self)
        readHeader(Substring(content))
    }

    private mutating func readHeader(_ content: Substring) {
        var tokens = content.split(separator: ", ", omittingEmptySubsequences: false)
        var consumed = 0
        if let first = tokens.first, first.hasPrefix("eventTime=") {
            // r2.11 and later.
            eventTime = Self.seconds(first.dropFirst(10))
            consumed = 1
            if tokens.count > 1, tokens[1].hasPrefix("mediaPos=") {
                mediaPos = Self.seconds(tokens[1].dropFirst(9))
                consumed = 2
            }
        } else if tokens.count >= 3, let time = Self.seconds(tokens[0]),
            Self.seconds(tokens[1]) != nil || tokens[1] == "?", tokens[2].hasPrefix("window=")
        {
            // r2.8 – r2.10: unlabelled eventTime and mediaPos.
            eventTime = time
            mediaPos = Self.seconds(tokens[1])
            consumed = 2
        } else if name == "state", tokens.count == 3, let time = Self.seconds(tokens[0]) {
            // ≤ r2.7: only state lines carry a time.
            eventTime = time
            consumed = 1
        } else if tokens.count == 1, Self.timeOnly.contains(name), let time = Self.seconds(tokens[0]) {
            // ≤ r2.7: `playerFailed [T]`, `seekProcessed [T]`.
            eventTime = time
            consumed = 1
        }
        while consumed < tokens.count,
            ["window=", "period=", "adGroup=", "ad="].contains(where: { tokens[consumed].hasPrefix($0) })
        {
            consumed += 1
        }
        tokens.removeFirst(min(consumed, tokens.count))
        details = tokens
        if let first = tokens.first {
            detailText = content[first.startIndex...]
        } else {
            detailText = content[content.endIndex...]
        }
    }

    /// `1.96` seconds as ms; nil for anything else (`?`, words). EventLogger prints 2 decimals
    /// (Locale.US, no grouping); more are rounded to the ms.
    package static func seconds(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, let value = Double(text), value.isFinite, value >= 0,
            text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E })
        else { return nil }
        return Int((value * 1000).rounded())
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    private static func knownName(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String? {
        guard end - start <= 32 else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        return names.contains(name) ? name : nil
    }

    private static func find(_ b: UnsafeBufferPointer<UInt8>, _ needle: StaticString, end: Int) -> Int? {
        let n = needle.utf8CodeUnitCount
        guard n > 0, end >= n else { return nil }
        let first = needle.utf8Start[0]
        var i = 0
        while i + n <= end {
            if b[i] == first {
                var j = 1
                while j < n, b[i + j] == needle.utf8Start[j] { j += 1 }
                if j == n { return i }
            }
            i += 1
        }
        return nil
    }
}

extension LogcatEnvelope {
    /// No time, no process.
    package static let none = LogcatEnvelope()

    private init() {
        wallClock = nil
        pid = nil
    }
}
