#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of an access log kept as bytes, with its tokens' places: an ASCII row is read from
/// them without a String per line (only what a row keeps, or a warning prints, becomes a
/// String). On ASCII text a Character is a byte, so trimming, prefixes and cuts by the byte
/// give what the String reading gives; a line with any other byte is left to the String reading.
struct AccessLogLine {
    /// The line as read, without its line feed: what a warning quotes.
    private(set) var bytes: [UInt8] = []
    /// The part read: the line without the spaces and tabs around it (or a part of it).
    private(set) var start = 0
    private(set) var end = 0
    /// Whether every byte is ASCII.
    private(set) var isASCII = true
    /// Each token's start and end, after `cut()`.
    private var cuts: [Int] = []

    /// Takes the next line's bytes (copied: the reader's buffer moves on).
    mutating func load(_ raw: UnsafeBufferPointer<UInt8>) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: raw)
        count = 0
        isASCII = Self.isASCII(raw)
        trim(0, raw.count)
    }

    mutating func load(_ raw: [UInt8]) {
        raw.withUnsafeBufferPointer { load($0) }
    }

    /// Reads only `from..<to`, without its blanks.
    mutating func trim(_ from: Int, _ to: Int) {
        var from = from
        var to = to
        while from < to, Self.isBlank(bytes[from]) { from += 1 }
        while to > from, Self.isBlank(bytes[to - 1]) { to -= 1 }
        start = from
        end = to
    }

    var isEmpty: Bool { start == end }
    var first: UInt8? { start < end ? bytes[start] : nil }
    /// The whole line as text, for a warning.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Whether the part read starts with `prefix`.
    func hasPrefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        return end - start >= n
            && bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, prefix.utf8Start, n) == 0 }
    }

    /// Where `text` first occurs in the part read.
    func firstIndex(of text: StaticString) -> Int? {
        let n = text.utf8CodeUnitCount
        guard end - start >= n else { return nil }
        return bytes.withUnsafeBufferPointer { all -> Int? in
            let base = all.baseAddress!
            var at = start
            while at <= end - n {
                guard let hit = memchr(base + at, Int32(text.utf8Start[0]), end - n + 1 - at) else { return nil }
                at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + at, text.utf8Start, n) == 0 { return at }
                at += 1
            }
            return nil
        }
    }

    /// Whether the bytes in `range` are `other`.
    func equals(_ range: Range<Int>, _ other: [UInt8]) -> Bool {
        guard range.count == other.count else { return false }
        guard !range.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { all in
            other.withUnsafeBufferPointer {
                memcmp(all.baseAddress! + range.lowerBound, $0.baseAddress!, range.count) == 0
            }
        }
    }

    /// Finds the tokens of the part read: space-separated, a `"…"` token keeping its spaces (as
    /// `AccessLogRow.cut`).
    mutating func cut() {
        var cuts: [Int] = []
        swap(&cuts, &self.cuts)
        if cuts.isEmpty { cuts = [Int](repeating: 0, count: 64) }
        // Written in place; when a line has more tokens than there is room, again with twice the room.
        while true {
            let found = Self.cut(bytes, start, end, into: &cuts)
            if found >= 0 {
                count = found
                break
            }
            cuts = [Int](repeating: 0, count: 2 * cuts.count)
        }
        self.cuts = cuts
    }

    /// The tokens of `bytes[from..<to]` into `cuts` (start, end of each); their number, or -1 when
    /// `cuts` has no room for them all.
    private static func cut(_ bytes: [UInt8], _ from: Int, _ to: Int, into cuts: inout [Int]) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            cuts.withUnsafeMutableBufferPointer { cuts -> Int in
                // Clamped, so no range handed in can make the word loads read past the bytes.
                let to = Swift.min(to, bytes.count)
                guard let base = bytes.baseAddress, from >= 0 else { return 0 }
                let space = UInt8(ascii: " ")
                let quote = UInt8(ascii: "\"")
                var index = from
                var written = 0
                while index < to {
                    while index < to, base[index] == space { index += 1 }
                    guard index < to else { break }
                    guard written + 2 <= cuts.count else { return -1 }
                    let tokenStart = index
                    if base[index] == quote {
                        index += 1
                        while index < to, base[index] != quote { index += 1 }
                        if index < to { index += 1 }
                    } else {
                        index = nextSpace(base, index + 1, to)
                    }
                    cuts[written] = tokenStart
                    cuts[written + 1] = index
                    written += 2
                }
                return written / 2
            }
        }
    }

    /// The first space in `from..<to` (`to` when none), eight bytes at a time: the bytes of
    /// every row go through here.
    private static func nextSpace(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        var index = from
        while index + 8 <= to {
            // A space becomes a zero byte; the lowest byte flagged by the borrow trick is the
            // first zero (flags above a zero byte can be false, below it never are).
            let word =
                UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                ^ 0x2020_2020_2020_2020
            let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if zeros != 0 { return index + zeros.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < to, base[index] != UInt8(ascii: " ") { index += 1 }
        return index
    }

    /// The number of tokens `cut()` found.
    private(set) var count = 0

    func token(_ index: Int) -> Range<Int> { cuts[2 * index]..<cuts[2 * index + 1] }

    /// A `-` value: the field is missing.
    func isMissing(_ range: Range<Int>) -> Bool {
        range.count == 1 && bytes[range.lowerBound] == UInt8(ascii: "-")
    }

    /// The value as `DecimalText.double` reads it.
    func double(_ range: Range<Int>) -> Double? {
        bytes.withUnsafeBufferPointer { DecimalText.double(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The value when it is 1 to 18 digits (no sign): anything else is for `Int(_:)`.
    func digits(_ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        return bytes.withUnsafeBufferPointer { all -> Int? in
            var value = 0
            for index in range {
                let digit = all[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int(digit)
            }
            return value
        }
    }

    /// `AccessLogRow.date` on two tokens.
    func date(_ day: Range<Int>, _ time: Range<Int>) -> Int? {
        bytes.withUnsafeBufferPointer {
            AccessLogRow.date(UnsafeBufferPointer(rebasing: $0[day]), UnsafeBufferPointer(rebasing: $0[time]))
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Eight bytes at a time: this runs on every byte of the log.
    static func isASCII(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = raw.baseAddress else { return true }
        var bits: UInt64 = 0
        var index = 0
        while index + 8 <= raw.count {
            bits |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            bits |= UInt64(base[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
