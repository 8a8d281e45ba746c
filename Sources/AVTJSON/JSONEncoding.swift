/// The byte-level core of JSON output, writing into memory the caller has reserved. Shared by
/// `JSONWriter` (an array, for general use) and `JSONBuffer` (raw storage, for hot paths), so
/// escaping and number spelling are defined once.
package enum JSONEncoding {
    /// Bytes a quoted, escaped string can take at most: every byte as `\u00XX`, plus quotes.
    @inlinable
    package static func maximumStringLength(utf8Count: Int) -> Int { utf8Count * 6 + 2 }

    /// Writes `"…"`, escaping `"`, `\`, control bytes and DEL; returns the bytes written.
    @inlinable
    package static func writeString(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x22
        // Most strings (ids, names, URLs) need no escape: copy them a checked word at a time,
        // in one pass, up to the first word holding a byte to escape.
        let clean = copyCleanPrefix(utf8, to: out + 1)
        var n = 1 + clean
        for byte in utf8[clean...] {
            if byte >= 0x20, byte != 0x22, byte != 0x5C, byte != 0x7F {
                out[n] = byte
                n += 1
            } else {
                n += writeEscape(byte, to: out + n)
            }
        }
        out[n] = 0x22
        return n + 1
    }

    /// Copies the leading bytes that need no escape to `out` (room for the whole string) and
    /// returns how many. A partial last word is read and written as the string's final 8 bytes,
    /// overlapping bytes already copied, instead of a byte at a time.
    @inlinable
    static func copyCleanPrefix(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let count = utf8.count
        let source = UnsafeRawPointer(base)
        let target = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 8 <= count {
            let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            guard isCleanWord(word) else {
                while i < count, !needsEscape(base[i]) {
                    out[i] = base[i]
                    i += 1
                }
                return i
            }
            target.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        if i < count, count >= 8 {
            let word = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            if isCleanWord(word) {
                target.storeBytes(of: word, toByteOffset: count - 8, as: UInt64.self)
                return count
            }
        }
        while i < count, !needsEscape(base[i]) {
            out[i] = base[i]
            i += 1
        }
        return i
    }

    /// Whether none of the word's bytes needs an escape (see `escapeMask`).
    @inlinable @inline(__always)
    static func isCleanWord(_ word: UInt64) -> Bool { escapeMask(word) == 0 }

    /// The high bit of each byte of `word` that JSON output escapes: below 0x20, `"` (0x22),
    /// `\` (0x5C) or DEL (0x7F); a byte equals one of those when its XOR with it is zero.
    /// Non-ASCII bytes (≥ 0x80) are not flagged. Bits above the lowest may be spurious (a
    /// borrow); the lowest set bit always marks the first such byte.
    @inlinable @inline(__always)
    package static func escapeMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let below20 = (word &- ones &* 0x20) & ~word & highs
        return below20 | zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x5C))
            | zeroByte(word ^ (ones &* 0x7F))
    }

    @inlinable @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }

    @usableFromInline
    static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x5C
        switch byte {
        case 0x22: out[1] = 0x22
        case 0x5C: out[1] = 0x5C
        case 0x08: out[1] = UInt8(ascii: "b")
        case 0x0C: out[1] = UInt8(ascii: "f")
        case 0x0A: out[1] = UInt8(ascii: "n")
        case 0x0D: out[1] = UInt8(ascii: "r")
        case 0x09: out[1] = UInt8(ascii: "t")
        default:
            // \u00XX with lowercase hex, the one spelling for every other control byte.
            let hex: StaticString = "0123456789abcdef"
            out[1] = UInt8(ascii: "u")
            out[2] = 0x30
            out[3] = 0x30
            out[4] = hex.utf8Start[Int(byte >> 4)]
            out[5] = hex.utf8Start[Int(byte & 0x0F)]
            return 6
        }
        return 2
    }

    /// Decimal digits of `v` (at most 20 bytes); returns the bytes written. May store up to 20
    /// bytes from `out` (past the returned count too), so callers reserve 20. Eight digits at a
    /// time in one register (below): most attributes are integers of 4–8 digits, and a loop of
    /// divisions by 100 was the encoder's largest single cost.
    @inlinable @inline(__always)
    package static func writeInt(_ v: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Inline for the common case: a call's register saves cost as much as the digits.
        if UInt(bitPattern: v) < 100_000_000 { return writeLeadingDigits(UInt64(v), to: UnsafeMutableRawPointer(out)) }
        return writeLongInt(v, to: out)
    }

    /// Negative numbers and those of more than 8 digits.
    @usableFromInline @inline(never)
    static func writeLongInt(_ v: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if v < 0 {
            out[0] = 0x2D
            n = 1
        }
        // `magnitude` is a UInt, so Int.min needs no special case.
        let x = UInt64(v.magnitude)
        let raw = UnsafeMutableRawPointer(out)
        if x < 100_000_000 { return n &+ writeLeadingDigits(x, to: raw + n) }
        if x < 10_000_000_000_000_000 {
            n &+= writeLeadingDigits(x / 100_000_000, to: raw + n)
        } else {
            n &+= writeLeadingDigits(x / 10_000_000_000_000_000, to: raw + n)
            raw.storeBytes(
                of: eightDigits(x / 100_000_000 % 100_000_000) | asciiZeros, toByteOffset: n, as: UInt64.self)
            n &+= 8
        }
        raw.storeBytes(of: eightDigits(x % 100_000_000) | asciiZeros, toByteOffset: n, as: UInt64.self)
        return n &+ 8
    }

    @usableFromInline static let asciiZeros: UInt64 = 0x3030_3030_3030_3030

    /// `x` (< 10^8) without leading zeros: stores 8 bytes, returns how many are digits (1…8).
    @inlinable @inline(__always)
    static func writeLeadingDigits(_ x: UInt64, to out: UnsafeMutableRawPointer) -> Int {
        let digits = eightDigits(x)
        // The most significant digit is the lowest byte: leading zeros are trailing zero bytes.
        // `| 1` keeps the last digit of 0.
        let zeros = (digits | (1 << 56)).trailingZeroBitCount &>> 3
        out.storeBytes(of: (digits | asciiZeros) &>> UInt64(zeros &<< 3), as: UInt64.self)
        return 8 &- zeros
    }

    /// The 8 decimal digits of `x` (< 10^8) as byte values 0…9, most significant in the lowest
    /// byte (so a little-endian store writes them in reading order). Splits into two 4-digit
    /// halves in 32-bit lanes, then 2-digit quarters in 16-bit lanes, then digits in bytes, each
    /// step dividing every lane at once by a multiply and shift that is exact in its range:
    /// x·10486 >> 20 = x / 100 for x < 10^4, and y·103 >> 10 = y / 10 for y < 100.
    @inlinable @inline(__always)
    static func eightDigits(_ x: UInt64) -> UInt64 {
        let halves = (x / 10_000) | ((x % 10_000) &<< 32)
        let hundreds = ((halves &* 10_486) &>> 20) & 0x0000_007F_0000_007F
        let quarters = ((halves &- hundreds &* 100) &<< 16) | hundreds
        let tens = ((quarters &* 103) &>> 10) & 0x000F_000F_000F_000F
        return tens | ((quarters &- tens &* 10) &<< 8)
    }
}
