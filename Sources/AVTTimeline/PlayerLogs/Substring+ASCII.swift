/// Prefix tests by bytes for the log readers. `hasPrefix` and `dropFirst` on a Substring walk
/// Characters (grapheme breaking on every byte); on a log of millions of lines they cost more
/// than the rest of a line's reading. For an ASCII prefix the byte test gives the same answer.
extension Substring {
    /// Whether the text starts with the ASCII `prefix`.
    func hasASCIIPrefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        var i = utf8.startIndex
        for j in 0..<n {
            guard i < utf8.endIndex, utf8[i] == prefix.utf8Start[j] else { return false }
            i = utf8.index(after: i)
        }
        return true
    }

    /// The text after the ASCII `prefix`; nil when it does not start with it.
    func afterASCIIPrefix(_ prefix: StaticString) -> Substring? {
        guard hasASCIIPrefix(prefix) else { return nil }
        return self[utf8.index(startIndex, offsetBy: prefix.utf8CodeUnitCount)...]
    }

    /// The text without its first `n` bytes, which the caller knows are ASCII.
    func droppingASCII(_ n: Int) -> Substring {
        self[utf8.index(startIndex, offsetBy: Swift.min(n, utf8.count))...]
    }
}

extension String {
    /// Whether the text holds the ASCII `needle` anywhere, by bytes. A match of Characters is a
    /// match of bytes, so a `false` here rules out `contains` and `firstRange(of:)` at the cost
    /// of a byte scan, not a grapheme walk.
    func containsASCII(_ needle: StaticString) -> Bool {
        let n = needle.utf8CodeUnitCount
        guard n > 0 else { return true }
        let found = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.count >= n else { return false }
            let first = needle.utf8Start[0]
            var i = 0
            while i <= bytes.count - n {
                if bytes[i] == first {
                    var j = 1
                    while j < n, bytes[i + j] == needle.utf8Start[j] { j += 1 }
                    if j == n { return true }
                }
                i += 1
            }
            return false
        }
        // A bridged string without contiguous bytes: the Character search decides.
        return found ?? true
    }
}
