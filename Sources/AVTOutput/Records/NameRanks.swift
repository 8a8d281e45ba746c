import AVTCore

/// Attribute names in code-point order (the order `sort_keys` tools and our JSON writer use),
/// as integer ranks so that ordering an event's keys compares integers, not text.
///
/// Re-ranking every name whenever a new one appears would be quadratic in the number of names:
/// a hostile timeline that uses a new key on each of 10^5 steps took minutes. So the ranks are
/// rebuilt on every new name only while there are few (a real session has a few dozen), and
/// past that only when the count of names has doubled since the last rebuild, which keeps the
/// total work n log n. Names learned since the last rebuild compare by their text; either way
/// the order is the names' own.
package struct NameRanks {
    /// Below this many names every new name re-ranks them all: cheap, and it keeps the
    /// integer-only path for every real session.
    static let alwaysRankedCount = 1024

    private(set) var names: [String] = []
    /// Ranks of `names[0..<ranks.count]`; later names have none yet.
    private var ranks: [Int32] = []

    /// Learns the names of every attribute index below `limit`; returns true when names were added.
    @discardableResult
    mutating func learn(upTo limit: Int) -> Bool {
        guard limit > names.count else { return false }
        let new = Attribute.names(fromIndex: names.count)
        guard !new.isEmpty else { return false }
        names.append(contentsOf: new)
        if names.count <= Self.alwaysRankedCount || names.count >= 2 * ranks.count { rerank() }
        return true
    }

    /// The rank of an attribute index, or `Int32.max` when it has none yet (compare by `names`).
    func rank(_ index: Int) -> Int32 {
        index < ranks.count ? ranks[index] : Int32.max
    }

    /// Whether attribute `a`'s name sorts before attribute `b`'s.
    func precedes(_ a: Int, _ b: Int) -> Bool {
        if a < ranks.count, b < ranks.count { return ranks[a] < ranks[b] }
        // String's `<` orders NFC text by code point (= by UTF-8 bytes).
        return names[a] < names[b]
    }

    private mutating func rerank() {
        ranks = [Int32](repeating: 0, count: names.count)
        for (rank, index) in names.indices.sorted(by: { names[$0] < names[$1] }).enumerated() {
            ranks[index] = Int32(rank)
        }
    }
}
