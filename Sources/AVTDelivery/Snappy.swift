/// Snappy's block format (github.com/google/snappy, format_description.txt), the compression
/// Prometheus remote write requires: the uncompressed length as a varint, then literals and
/// back-references. Compression only, the reference's algorithm: fragments of 64 KiB (so every
/// offset fits two bytes and a table of 16-bit positions will do), a hash table of 4-byte words,
/// a lookup that skips faster through data that does not match, and matches extended 8 bytes at
/// a time. Any valid stream decodes to the input; how small it is only matters for speed.
///
/// A run compresses every sample it sends, so this works on raw pointers; the safe entry points
/// size every buffer before the first byte is written, and the tests decode what it makes.
package enum Snappy {
    private static let fragment = 1 << 16
    private static let maxTableBits = 14
    /// The reference's margin: a fragment's last 15 bytes are never looked up, so the 4- and
    /// 8-byte loads of the match finder stay inside it.
    private static let inputMargin = 15

    package static func compress(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var table: [UInt16] = []
        let count = input.withUnsafeBytes { compress($0, into: &out, table: &table) }
        return Array(out[0..<count])
    }

    /// The most a compressed input of `count` bytes takes (the reference's bound).
    static func maxCompressedLength(_ count: Int) -> Int { 32 + count + count / 6 }

    /// Compresses `input` into the start of `out` and returns the compressed length. `out` and
    /// `table` are grown as needed and never shrunk, so a caller that keeps them allocates once.
    static func compress(_ input: UnsafeRawBufferPointer, into out: inout [UInt8], table: inout [UInt16]) -> Int {
        let bound = maxCompressedLength(input.count)
        if out.count < bound { out = [UInt8](repeating: 0, count: bound) }
        if table.count < 1 << maxTableBits { table = [UInt16](repeating: 0, count: 1 << maxTableBits) }
        return out.withUnsafeMutableBufferPointer { out in
            table.withUnsafeMutableBufferPointer { table in
                let dst = out.baseAddress!
                var op = Varint.put(UInt64(input.count), dst)
                guard let src = input.baseAddress else { return op }
                var start = 0
                while start < input.count {
                    let n = min(input.count - start, fragment)
                    op += compressFragment(src + start, n, dst + op, table.baseAddress!)
                    start += n
                }
                precondition(op <= bound, "snappy output over its bound")
                return op
            }
        }
    }

    /// One fragment: positions in the table are relative to it, so offsets are under 64 KiB.
    /// `dst` has room for `maxCompressedLength(n)` bytes.
    private static func compressFragment(
        _ src: UnsafeRawPointer, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>, _ table: UnsafeMutablePointer<UInt16>
    ) -> Int {
        var tableBits = 8
        while tableBits < maxTableBits, 1 << tableBits < n { tableBits += 1 }
        table.update(repeating: 0, count: 1 << tableBits)
        let shift = UInt32(32 - tableBits)
        func hash(_ i: Int) -> Int { Int((load32(src, i) &* 0x1E35_A7BD) >> shift) }
        var op = 0
        var nextEmit = 0
        if n >= inputMargin {
            let ipLimit = n - inputMargin
            var ip = 1
            var nextHash = hash(ip)
            search: while true {
                // Look for a 4-byte match, stepping further the longer none is found.
                var skip = 32
                var nextIp = ip
                var candidate = 0
                repeat {
                    ip = nextIp
                    let h = nextHash
                    nextIp = ip + skip >> 5
                    skip += 1
                    if nextIp > ipLimit { break search }
                    nextHash = hash(nextIp)
                    candidate = Int(table[h])
                    table[h] = UInt16(truncatingIfNeeded: ip)
                } while load32(src, ip) != load32(src, candidate)
                op += emitLiteral(src + nextEmit, ip - nextEmit, dst + op)
                // Copies for as long as the next position matches too.
                repeat {
                    let matched = 4 + matchLength(src, candidate + 4, ip + 4, n)
                    op += emitCopy(offset: ip - candidate, length: matched, dst + op)
                    ip += matched
                    nextEmit = ip
                    if ip >= ipLimit { break search }
                    table[hash(ip - 1)] = UInt16(truncatingIfNeeded: ip - 1)
                    let h = hash(ip)
                    candidate = Int(table[h])
                    table[h] = UInt16(truncatingIfNeeded: ip)
                } while load32(src, ip) == load32(src, candidate)
                ip += 1
                nextHash = hash(ip)
            }
        }
        if nextEmit < n { op += emitLiteral(src + nextEmit, n - nextEmit, dst + op) }
        return op
    }

    private static func load32(_ src: UnsafeRawPointer, _ i: Int) -> UInt32 {
        UInt32(littleEndian: src.loadUnaligned(fromByteOffset: i, as: UInt32.self))
    }

    /// How many bytes from `b` on equal those from `a` on (`a` < `b`), up to `end`.
    private static func matchLength(_ src: UnsafeRawPointer, _ a: Int, _ b: Int, _ end: Int) -> Int {
        var matched = 0
        while b + matched + 8 <= end {
            let x = UInt64(littleEndian: src.loadUnaligned(fromByteOffset: a + matched, as: UInt64.self))
            let y = UInt64(littleEndian: src.loadUnaligned(fromByteOffset: b + matched, as: UInt64.self))
            if x != y { return matched + (x ^ y).trailingZeroBitCount >> 3 }
            matched += 8
        }
        while b + matched < end,
            src.load(fromByteOffset: a + matched, as: UInt8.self)
                == src.load(fromByteOffset: b + matched, as: UInt8.self)
        {
            matched += 1
        }
        return matched
    }

    /// Tag `00`: lengths up to 60 in the tag, longer ones in 1 to 4 following bytes.
    private static func emitLiteral(_ src: UnsafeRawPointer, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>) -> Int {
        guard n > 0 else { return 0 }
        let m = n - 1
        var op = 0
        if m < 60 {
            dst[0] = UInt8(m << 2)
            op = 1
        } else {
            var bytes = 0
            var rest = m
            while rest > 0 {
                bytes += 1
                rest >>= 8
            }
            dst[0] = UInt8((59 + bytes) << 2)
            for k in 0..<bytes { dst[1 + k] = UInt8(truncatingIfNeeded: m >> (8 * k)) }
            op = 1 + bytes
        }
        UnsafeMutableRawPointer(dst + op).copyMemory(from: src, byteCount: n)
        return op + n
    }

    /// A match as copies of at most 64 bytes, as the reference splits it: the last piece keeps
    /// at least 4 bytes, so it can use the short form.
    private static func emitCopy(offset: Int, length: Int, _ dst: UnsafeMutablePointer<UInt8>) -> Int {
        var length = length
        var op = 0
        while length >= 68 {
            op += emitCopyAtMost64(offset: offset, length: 64, dst + op)
            length -= 64
        }
        if length > 64 {
            op += emitCopyAtMost64(offset: offset, length: 60, dst + op)
            length -= 60
        }
        return op + emitCopyAtMost64(offset: offset, length: length, dst + op)
    }

    /// Tag `01` (lengths 4–11, offsets under 2048) or `10` (lengths 1–64, two-byte offsets).
    private static func emitCopyAtMost64(offset: Int, length: Int, _ dst: UnsafeMutablePointer<UInt8>) -> Int {
        if length < 12, offset < 2048 {
            dst[0] = UInt8((offset >> 8) << 5 | (length - 4) << 2 | 1)
            dst[1] = UInt8(truncatingIfNeeded: offset)
            return 2
        }
        dst[0] = UInt8((length - 1) << 2 | 2)
        dst[1] = UInt8(truncatingIfNeeded: offset)
        dst[2] = UInt8(truncatingIfNeeded: offset >> 8)
        return 3
    }
}
