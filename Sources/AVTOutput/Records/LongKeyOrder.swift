import AVTCore

/// The name order of the last event with more keys than `AttributeOrderCache` holds, kept to
/// order the next such event. A timeline that sets a new attribute on every step makes every
/// event carry one key more than the last; sorting each event's keys afresh cost n log n
/// comparisons per event (text comparisons, for names newer than the last re-ranking). The
/// next order is the last one without the keys that went, with the new keys (sorted among
/// themselves) inserted where they belong: work in proportion to the keys written, plus a sort
/// of the new ones alone.
package struct LongKeyOrder {
    /// Key indexes of the last long event, in name order.
    private var sorted: [Int32] = []
    /// By key index: the key's position in the event being ordered, valid where `stamps` holds
    /// the current `generation` (so nothing is cleared between events). A stamp of the previous
    /// generation marks a key of the last event, that is, one in `sorted`.
    private var positions: [Int32] = []
    private var stamps: [UInt32] = []
    private var generation: UInt32 = 0

    /// The positions of `entries` in name order; `precedes` compares two key indexes by name.
    mutating func order(
        of entries: UnsafeBufferPointer<AttributeMap.Entry>, precedes: (Int32, Int32) -> Bool
    ) -> [Int32] {
        let previous = nextGeneration()
        var added: [Int32] = []
        for (i, entry) in entries.enumerated() {
            let key = Int(entry.key.index)
            if key >= positions.count { grow(to: key + 1) }
            if previous == 0 || stamps[key] != previous { added.append(entry.key.index) }
            positions[key] = Int32(i)
            stamps[key] = generation
        }
        added.sort(by: precedes)
        // The kept keys in their order, each added key inserted where a binary search puts it.
        var merged: [Int32] = []
        merged.reserveCapacity(entries.count)
        var next = 0
        for key in added {
            var (low, high) = (next, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if precedes(sorted[middle], key) { low = middle + 1 } else { high = middle }
            }
            for kept in sorted[next..<low] where stamps[Int(kept)] == generation { merged.append(kept) }
            merged.append(key)
            next = low
        }
        for kept in sorted[next...] where stamps[Int(kept)] == generation { merged.append(kept) }
        sorted = merged
        return merged.map { positions[Int($0)] }
    }

    private mutating func grow(to count: Int) {
        let more = max(count, 2 * positions.count) - positions.count
        positions += repeatElement(0, count: more)
        stamps += repeatElement(0, count: more)
    }

    /// Starts the next generation and returns the last one (0: none, `sorted` is empty).
    private mutating func nextGeneration() -> UInt32 {
        guard generation < UInt32.max else {
            for i in stamps.indices { stamps[i] = 0 }
            sorted = []
            generation = 1
            return 0
        }
        generation += 1
        return generation - 1
    }
}
