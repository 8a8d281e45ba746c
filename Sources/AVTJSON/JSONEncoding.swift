/// The byte-level core of JSON output, writing into memory the caller has reserved. Shared by
/// `JSONWriter` (an array, for general use) and `JSONBuffer` (raw storage, for hot paths), so
/// escaping and number spelling are defined once.
public enum JSONEncoding {
    /// Bytes a quoted, escaped string can take at most: every byte as `\u00XX`, plus quotes.
    @inlinable
    public static func maximumStringLength(utf8Count: Int) -> Int { utf8Count * 6 + 2 }

    /// Writes `"…"`, escaping `"`, `\`, control bytes and DEL; returns the bytes written.
    @inlinable
    public static func writeString(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
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

    /// Whether none of the word's bytes is below 0x20, `"` (0x22), `\` (0x5C) or DEL (0x7F):
    /// a byte equals one of those when its XOR with it is zero. Non-ASCII bytes (≥ 0x80) are
    /// clean. May answer false for a clean word (a borrow), never true for an unclean one.
    @inlinable @inline(__always)
    public static func isCleanWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let below20 = (word &- ones &* 0x20) & ~word & highs
        return below20 | zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x5C)) | zeroByte(word ^ (ones &* 0x7F)) == 0
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

    /// Decimal digits of `v` (at most 20 bytes); returns the bytes written. Two digits per
    /// division, from a table: most attributes are integers, so this runs ~30 times per event.
    @inlinable
    public static func writeInt(_ v: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if v < 0 {
            out[0] = 0x2D
            n = 1
        }
        // `magnitude` is a UInt, so Int.min needs no special case.
        var remaining = v.magnitude
        let digits = decimalDigitCount(remaining)
        let pairs = digitPairs.utf8Start
        var position = n + digits
        while remaining >= 100 {
            let pair = Int(truncatingIfNeeded: remaining % 100) &* 2
            remaining /= 100
            position -= 2
            out[position] = pairs[pair]
            out[position + 1] = pairs[pair + 1]
        }
        if remaining >= 10 {
            let pair = Int(truncatingIfNeeded: remaining) &* 2
            out[position - 2] = pairs[pair]
            out[position - 1] = pairs[pair + 1]
        } else {
            out[position - 1] = 0x30 &+ UInt8(truncatingIfNeeded: remaining)
        }
        return n + digits
    }

    /// Digits of `x` (1 for 0) from its bit length: log10 ≈ bits × 1233 / 4096, one short for
    /// values below that power of ten. A loop multiplying by ten ran once per digit.
    @inlinable @inline(__always)
    static func decimalDigitCount(_ x: UInt) -> Int {
        let estimate = ((UInt.bitWidth &- (x | 1).leadingZeroBitCount) &* 1233) &>> 12
        return estimate &+ ((x | 1) >= powerOfTen(estimate) ? 1 : 0)
    }

    /// 10^n for n in 0...19, by a switch the compiler turns into a table.
    @inlinable @inline(__always)
    static func powerOfTen(_ n: Int) -> UInt {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        case 17: return 100_000_000_000_000_000
        case 18: return 1_000_000_000_000_000_000
        default: return 10_000_000_000_000_000_000
        }
    }

    @usableFromInline
    static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
}
