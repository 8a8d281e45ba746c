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
