#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// The event, for `.event` lines.
    package var event: EventLoggerEvent?
    /// The event's name as EventLogger writes it; empty for other lines.
    package var name: String { event?.rawValue ?? "" }
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
    /// The line ends with `[`: inside a block, a nested one opens (`  group [` in `tracks [`).
    package var opensNested = false

    /// Reads a line; `.other` when it is not an EventLogger line.
    package static func parse(_ b: UnsafeBufferPointer<UInt8>) -> EventLoggerLine {
        var line = EventLoggerLine(kind: .other)
        // Trailing blanks (Studio pads, editors keep `\r`) are not part of the message.
        var end = b.count
        while end > 0, b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0x0D { end -= 1 }
        var i = 2
        while let bracket = nextBracket(b, from: i, end: end) {
            i = bracket
            if b[i - 1] == 0x20, isLetter(b[i - 2]) {
                var start = i - 2
                while start > 0, isLetter(b[start - 1]) { start -= 1 }
                if start == 0 || isMessageBoundary(b[start - 1]), let event = EventLoggerEvent.named(b, start, i - 1) {
                    line.kind = .event
                    line.event = event
                    line.messageStart = start
                    line.envelope = LogcatEnvelope(b, end: start)
                    line.readContent(b, from: i + 1, end: end)
                    return line
                }
            }
            i += 1
        }
        line.opensNested = end > 0 && b[end - 1] == 0x5B
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

    /// The bracket's content up to its matching `]`, then the event time header. Bytes, not
    /// Strings, up to the details: this runs for every event line of logs of any size.
    private mutating func readContent(_ b: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) {
        // From bracket to bracket by memchr: a byte loop over every detail cost more than the
        // rest of the line's reading. Most contents hold no `[` before their `]`.
        // Each search starts past the last one's hit, so a line of brackets stays linear.
        var depth = 1
        var close = end
        var nextOpen = Self.next(0x5B, in: b, from: start, end: end) ?? end
        var nextShut = Self.next(0x5D, in: b, from: start, end: end)
        while let shut = nextShut {
            if nextOpen < shut {
                depth += 1
                nextOpen = Self.next(0x5B, in: b, from: nextOpen + 1, end: end) ?? end
                continue
            }
            depth -= 1
            if depth == 0 {
                close = shut
                break
            }
            nextShut = Self.next(0x5D, in: b, from: shut + 1, end: end)
        }
        closed = depth == 0
        // The first tokens, split at ", ": at most six are header (time, position, window,
        // period, adGroup, ad).
        // Inline storage: an array here was a heap allocation for every event line.
        var tokens = TokenRanges()
        var tokenStart = start
        var i = start
        while i < close, tokens.count < 7, let comma = Self.next(0x2C, in: b, from: i, end: close) {
            if comma + 1 < close, b[comma + 1] == 0x20 {
                tokens.append(tokenStart..<comma)
                tokenStart = comma + 2
                i = comma + 2
                continue
            }
            i = comma + 1
        }
        let restStart = tokenStart
        var consumed = 0
        let first = tokens.first ?? (tokenStart..<close)
        let count = tokens.count + 1  // at least, when the last token runs to the end
        func token(_ n: Int) -> Range<Int> { n < tokens.count ? tokens[n] : restStart..<close }
        if Self.starts(b, first, "eventTime=") {
            // r2.11 and later.
            eventTime = Self.seconds(b, first.lowerBound + 10..<first.upperBound)
            consumed = 1
            if count > 1, Self.starts(b, token(1), "mediaPos=") {
                mediaPos = Self.seconds(b, token(1).lowerBound + 9..<token(1).upperBound)
                consumed = 2
            }
        } else if count >= 3, let time = Self.seconds(b, first),
            Self.seconds(b, token(1)) != nil || Self.equals(b, token(1), "?"), Self.starts(b, token(2), "window=")
        {
            // r2.8 – r2.10: unlabelled eventTime and mediaPos.
            eventTime = time
            mediaPos = Self.seconds(b, token(1))
            consumed = 2
        } else if event == .state && tokens.count == 2 || event == .internalError && tokens.count == 1,
            let time = Self.seconds(b, first)
        {
            // ≤ r2.7: state lines (`state [T, true, B]`) and `internalError [T, loadError]` carry a time.
            eventTime = time
            consumed = 1
        } else if tokens.isEmpty, event?.isTimeOnlyInOldEras == true, let time = Self.seconds(b, first) {
            // ≤ r2.7: `playerFailed [T]`, `seekProcessed [T]`.
            eventTime = time
            consumed = 1
        }
        while consumed < count, Self.isPositionToken(b, token(consumed)) { consumed += 1 }
        detailStart = consumed < count ? token(consumed).lowerBound : close
        detailEnd = close
    }

    /// Where the details are in the line, read into Strings only for the events mapped.
    private var detailStart = 0
    private var detailEnd = 0

    /// Splits the details (`true, USER_REQUEST`) of a line read by `parse`.
    package mutating func readDetails(_ b: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[detailStart..<detailEnd]), as: UTF8.self)
        detailText = Substring(text)
        details = text.isEmpty ? [] : Self.split(text)
    }

    /// `text` cut at each ", ", by bytes: the generic `split(separator:)` searched Characters
    /// and took a third of a log's reading. Cuts fall after ASCII bytes, so on Character
    /// boundaries (a broken sequence is decoded as U+FFFD, itself whole).
    private static func split(_ text: String) -> [Substring] {
        var parts: [Substring] = []
        let bytes = text.utf8
        var partStart = bytes.startIndex
        var i = partStart
        var previousIsComma = false
        while i < bytes.endIndex {
            let byte = bytes[i]
            if previousIsComma, byte == 0x20 {
                parts.append(text[partStart..<bytes.index(before: i)])
                partStart = bytes.index(after: i)
            }
            previousIsComma = byte == 0x2C
            i = bytes.index(after: i)
        }
        parts.append(text[partStart...])
        return parts
    }

    private static func isPositionToken(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        starts(b, r, "window=") || starts(b, r, "period=") || starts(b, r, "adGroup=") || starts(b, r, "ad=")
    }

    private static func starts(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard r.count >= n else { return false }
        for j in 0..<n where b[r.lowerBound + j] != prefix.utf8Start[j] { return false }
        return true
    }

    private static func equals(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ text: StaticString) -> Bool {
        r.count == text.utf8CodeUnitCount && starts(b, r, text)
    }

    /// `1.96` (digits, an optional fraction) as ms, rounded half up past the third decimal.
    static func seconds(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
        guard !r.isEmpty, r.count <= 18 else { return nil }
        var whole = 0
        var i = r.lowerBound
        while i < r.upperBound, b[i] >= 0x30, b[i] <= 0x39 {
            whole = whole * 10 + Int(b[i] - 0x30)
            i += 1
        }
        // At most 12 digits of seconds (31,000 years): the ms fit easily in 2^53.
        guard i > r.lowerBound, i - r.lowerBound <= 12 else { return nil }
        var ms = whole * 1000
        if i < r.upperBound {
            guard b[i] == 0x2E else { return nil }
            i += 1
            var scale = 100
            var roundUp = false
            while i < r.upperBound {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                if scale > 0 {
                    ms += Int(b[i] - 0x30) * scale
                } else if scale == 0 {
                    roundUp = b[i] >= 0x35
                }
                scale = scale == 1 ? 0 : scale == 0 ? -1 : scale / 10
                i += 1
            }
            if roundUp { ms += 1 }
        }
        return ms
    }

    /// `1.96` seconds as ms; nil for anything else (`?`, words). EventLogger prints 2 decimals
    /// (Locale.US, no grouping); more are rounded to the ms.
    package static func seconds(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, let value = Double(text), value.isFinite, value >= 0, value < 1e12,
            text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E })
        else { return nil }
        return Int((value * 1000).rounded())
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    /// What can stand before a message: a blank, the tag's `:`, `-v brief`'s `)`, a `/`.
    private static func isMessageBoundary(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x3A || c == 0x29 || c == 0x2F
    }

    /// The next `[` in `from..<end`, by memchr: most lines hold one, far into the line.
    private static func nextBracket(_ b: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
        next(0x5B, in: b, from: from, end: end)
    }

    /// The next `byte` in `from..<end` (clamped to the buffer), by memchr.
    private static func next(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
        let end = Swift.min(end, b.count)
        guard from >= 0, from < end, let base = b.baseAddress else { return nil }
        guard let found = memchr(base + from, Int32(byte), end - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private static func find(_ b: UnsafeBufferPointer<UInt8>, _ needle: StaticString, end: Int) -> Int? {
        let n = needle.utf8CodeUnitCount
        guard n > 0, end >= n else { return nil }
        // From one first byte to the next by memchr.
        var i = 0
        while let hit = next(needle.utf8Start[0], in: b, from: i, end: end - n + 1) {
            var j = 1
            while j < n, b[hit + j] == needle.utf8Start[j] { j += 1 }
            if j == n { return hit }
            i = hit + 1
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

/// Up to seven token ranges of a line's header, without a heap allocation.
private struct TokenRanges {
    private var storage = (0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    var first: Range<Int>? { count > 0 ? storage.0 : nil }

    mutating func append(_ range: Range<Int>) {
        switch count {
        case 0: storage.0 = range
        case 1: storage.1 = range
        case 2: storage.2 = range
        case 3: storage.3 = range
        case 4: storage.4 = range
        case 5: storage.5 = range
        case 6: storage.6 = range
        default: return
        }
        count += 1
    }

    subscript(n: Int) -> Range<Int> {
        switch n {
        case 0: return storage.0
        case 1: return storage.1
        case 2: return storage.2
        case 3: return storage.3
        case 4: return storage.4
        case 5: return storage.5
        default: return storage.6
        }
    }
}
