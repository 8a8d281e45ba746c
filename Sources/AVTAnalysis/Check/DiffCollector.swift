/// Collects a comparison's entries as they are decided, keeping every difference and the
/// `context` unchanged records on each side of one (what the text report shows), and only
/// counting the other unchanged records: memory grows with the differences, not the records.
struct DiffCollector {
    private let context: Int
    private(set) var entries: [DiffEntry] = []
    private(set) var positions: [Int] = []
    /// Unchanged records just seen, with their positions, not yet known to be context.
    private var recent: [(DiffEntry, Int)] = []
    /// Unchanged records still to keep after the last difference.
    private var trailing = 0
    private var count = 0

    init(context: Int) { self.context = context }

    mutating func append(_ entry: DiffEntry) {
        defer { count += 1 }
        if entry.isDifference {
            for (kept, position) in recent {
                entries.append(kept)
                positions.append(position)
            }
            recent.removeAll(keepingCapacity: true)
            entries.append(entry)
            positions.append(count)
            trailing = context
        } else if trailing > 0 {
            entries.append(entry)
            positions.append(count)
            trailing -= 1
        } else if context > 0 {
            if recent.count == context { recent.removeFirst() }
            recent.append((entry, count))
        }
    }
}
