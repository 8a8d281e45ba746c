/// Snappy's block format (github.com/google/snappy, format_description.txt), the compression
/// Prometheus remote write requires: the uncompressed length as a varint, then literals and
/// back-references. Compression only; a greedy matcher over 4-byte hashes, like the reference,
/// in fragments of 64 KiB so that every offset fits two bytes. Any valid stream decodes to the
/// input; how small it is only matters for speed.
package enum Snappy {
    private static let fragment = 1 << 16
    private static let tableBits = 14

    package static func compress(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(input.count / 2 + 16)
        appendVarint(UInt64(input.count), to: &out)
        var table = [Int](repeating: -1, count: 1 << tableBits)
        var start = 0
        while start < input.count {
            let end = min(input.count, start + fragment)
            compressFragment(input, start, end, table: &table, into: &out)
            start = end
        }
        return out
    }

    /// One fragment: back-references stay inside it (the table is reset), so offsets are < 64 KiB.
    private static func compressFragment(
        _ input: [UInt8], _ start: Int, _ end: Int, table: inout [Int], into out: inout [UInt8]
    ) {
        for i in table.indices { table[i] = -1 }
        var literal = start
        var i = start
        // A match needs 4 bytes to compare.
        while i + 4 <= end {
            let word = load32(input, i)
            let h = Int((word &* 0x1E35_A7BD) >> (32 - UInt32(tableBits)))
            let candidate = table[h]
            table[h] = i
            guard candidate >= start, load32(input, candidate) == word else {
                // Skip faster through data that does not compress, as the reference does.
                i += 1 + (i - literal) >> 5
                continue
            }
            var length = 4
            while i + length < end, input[candidate + length] == input[i + length] { length += 1 }
            emitLiteral(input, literal, i, into: &out)
            emitCopy(offset: i - candidate, length: length, into: &out)
            i += length
            literal = i
        }
        emitLiteral(input, literal, end, into: &out)
    }

    private static func load32(_ bytes: [UInt8], _ i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }

    /// Tag `00`: lengths up to 60 in the tag, longer ones in 1 to 4 following bytes.
    private static func emitLiteral(_ input: [UInt8], _ from: Int, _ to: Int, into out: inout [UInt8]) {
        let n = to - from
        guard n > 0 else { return }
        let m = n - 1
        if m < 60 {
            out.append(UInt8(m << 2))
        } else {
            var bytes = 0
            var rest = m
            while rest > 0 {
                bytes += 1
                rest >>= 8
            }
            out.append(UInt8((59 + bytes) << 2))
            for k in 0..<bytes { out.append(UInt8(truncatingIfNeeded: m >> (8 * k))) }
        }
        out.append(contentsOf: input[from..<to])
    }

    /// Tag `01` (lengths 4–11, offsets under 2048) or `10` (lengths 1–64, two-byte offsets); a
    /// longer match is several copies of the same offset.
    private static func emitCopy(offset: Int, length: Int, into out: inout [UInt8]) {
        var length = length
        while length > 0 {
            // Leave at least 4 for the last piece when it could use the short form.
            let piece = length > 64 ? (length - 64 < 4 ? 60 : 64) : length
            if piece >= 4, piece <= 11, offset < 2048 {
                out.append(UInt8((offset >> 8) << 5 | (piece - 4) << 2 | 1))
                out.append(UInt8(offset & 0xFF))
            } else {
                out.append(UInt8((piece - 1) << 2 | 2))
                out.append(UInt8(offset & 0xFF))
                out.append(UInt8(offset >> 8))
            }
            length -= piece
        }
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}
