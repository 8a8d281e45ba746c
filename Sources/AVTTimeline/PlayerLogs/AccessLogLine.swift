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
    /// The line as read, without its line feed, in `storage[0..<length]`: the storage is kept
    /// from line to line (only grown), so taking a line is one copy, not a reallocation.
    private var storage: [UInt8] = []
    private var length = 0
    /// The line as read, without its line feed: what a warning quotes.
    var bytes: ArraySlice<UInt8> { storage[0..<length] }
    /// The part read: the line without the spaces and tabs around it (or a part of it).
    private(set) var start = 0
    private(set) var end = 0
    /// Whether every byte is ASCII.
    private(set) var isASCII = true
    /// Each token's start and end, after `cut()`.
    private var cuts: [Int] = []

    /// Takes the next line's bytes (copied: the reader's buffer moves on).
    mutating func load(_ raw: UnsafeBufferPointer<UInt8>) {
        if storage.count < raw.count { storage = [UInt8](repeating: 0, count: Swift.max(raw.count, 2 * storage.count)) }
        length = raw.count
        if let source = raw.baseAddress, raw.count > 0 {
            storage.withUnsafeMutableBufferPointer { _ = memcpy($0.baseAddress!, source, raw.count) }
        }
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
        while from < to, Self.isBlank(storage[from]) { from += 1 }
        while to > from, Self.isBlank(storage[to - 1]) { to -= 1 }
        start = from
        end = to
    }

    var isEmpty: Bool { start == end }
    var first: UInt8? { start < end ? storage[start] : nil }
    /// The whole line as text, for a warning.
    var text: String { string(0..<length) }

    func string(_ range: Range<Int>) -> String {
        storage.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Whether the part read starts with `prefix`.
    func hasPrefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        return end - start >= n
            && storage.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, prefix.utf8Start, n) == 0 }
    }

    /// Where `text` first occurs in the part read.
    func firstIndex(of text: StaticString) -> Int? {
        let n = text.utf8CodeUnitCount
        guard end - start >= n else { return nil }
        return storage.withUnsafeBufferPointer { all -> Int? in
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
        return storage.withUnsafeBufferPointer { all in
            other.withUnsafeBufferPointer {
                memcmp(all.baseAddress! + range.lowerBound, $0.baseAddress!, range.count) == 0
            }
        }
    }

    /// Finds the tokens of the part read: space-separated, a `"…"` token keeping its spaces (as
    /// `AccessLogRow.cut`). All of them are counted; the places of the first `places` only (an
    /// index's check reads the first few tokens, and only needs the others' number).
    mutating func cut(places: Int = .max) {
        var cuts: [Int] = []
        swap(&cuts, &self.cuts)
        if cuts.isEmpty { cuts = [Int](repeating: 0, count: 64) }
        // Written in place; when a line has more tokens than there is room, again with twice the room.
        while true {
            let found = Self.cut(storage, start, end, into: &cuts, places: places)
            if found >= 0 {
                count = found
                break
            }
            cuts = [Int](repeating: 0, count: 2 * cuts.count)
        }
        self.cuts = cuts
    }

    /// The tokens of `bytes[from..<to]` into `cuts` (start, end of each, for the first `places`);
    /// their number, or -1 when `cuts` has no room for the places asked for.
    static func cut(_ bytes: [UInt8], _ from: Int, _ to: Int, into cuts: inout [Int], places: Int = .max) -> Int {
        bytes.withUnsafeBufferPointer { bytes in
            cuts.withUnsafeMutableBufferPointer { cuts -> Int in
                // Clamped, so no range handed in can make the word loads read past the bytes.
                let to = Swift.min(to, bytes.count)
                guard let base = bytes.baseAddress, from >= 0, from < to else { return 0 }
                // A line without a quote (every row of an access log's events): its tokens are
                // the runs of other bytes, found a word at a time.
                if memchr(base + from, Int32(UInt8(ascii: "\"")), to - from) == nil {
                    return plainCut(base, from, to, into: cuts, places: places)
                }
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

    /// The runs of bytes other than a space in `from..<to`, 64 bytes at a time: a mask of the
    /// bytes that are not spaces, then each run's start is a set bit after a clear one and its
    /// end a clear bit after a set one. The k-th end found closes the k-th start found, so the
    /// two are written independently. Only the first `places` runs are written; the others
    /// are counted by their starts.
    private static func plainCut(
        _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int, into cuts: UnsafeMutableBufferPointer<Int>, places: Int
    ) -> Int {
        let room = cuts.count / 2
        let written = Swift.min(places, room)
        var starts = 0
        var ends = 0
        // Whether the byte before the block is not a space.
        var carry: UInt64 = 0
        var block = from
        while block < to {
            let n = Swift.min(64, to - block)
            var mask: UInt64 = 0
            var k = 0
            while k + 8 <= n {
                // Invariant: k + 8 <= n, so the word lies inside `from..<to`.
                let word =
                    UInt64(littleEndian: UnsafeRawPointer(base + block + k).loadUnaligned(as: UInt64.self))
                    ^ 0x2020_2020_2020_2020
                // The high bit of each byte set when the byte is not zero (not a space): exact,
                // no borrow between bytes.
                let nonZero = (((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
                // The eight high bits gathered into the top byte, byte i to bit i.
                mask |= (((nonZero >> 7) &* 0x0102_0408_1020_4080) >> 56) << UInt64(k)
                k += 8
            }
            while k < n {
                if base[block + k] != UInt8(ascii: " ") { mask |= 1 << UInt64(k) }
                k += 1
            }
            let before = (mask << 1) | carry
            var startBits = mask & ~before
            // Past a short (last) block the bits are clear: a run reaching `to` ends at bit n.
            var endBits = ~mask & before
            while startBits != 0, starts < written {
                cuts[2 * starts] = block + startBits.trailingZeroBitCount
                starts += 1
                startBits &= startBits &- 1
            }
            // The runs past the places asked for are only counted.
            starts += startBits.nonzeroBitCount
            while endBits != 0, ends < written {
                cuts[2 * ends + 1] = block + endBits.trailingZeroBitCount
                ends += 1
                endBits &= endBits &- 1
            }
            carry = n == 64 ? mask >> 63 : 0
            block += n
        }
        // A run reaching the end of a full last block.
        if carry != 0, ends < written { cuts[2 * ends + 1] = to }
        return places > room && starts > room ? -1 : starts
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
        range.count == 1 && storage[range.lowerBound] == UInt8(ascii: "-")
    }

    /// The value as `DecimalText.double` reads it.
    func double(_ range: Range<Int>) -> Double? {
        storage.withUnsafeBufferPointer { DecimalText.double(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The value when it is 1 to 18 digits (no sign): anything else is for `Int(_:)`.
    func digits(_ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        return storage.withUnsafeBufferPointer { all -> Int? in
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
        storage.withUnsafeBufferPointer {
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
        while index + 32 <= raw.count {
            let at = UnsafeRawPointer(base + index)
            bits |=
                at.loadUnaligned(as: UInt64.self) | at.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                | at.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                | at.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            index += 32
        }
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
