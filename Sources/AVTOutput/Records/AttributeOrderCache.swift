import AVTCore
import AVTTimeline

/// Write orders the encoder already worked out, found by the sequence of keys they are for.
/// An event's keys come in the order they were set, and that sequence repeats from event to
/// event of a tracker (the instrument's, the getters' and then the hub's attributes); for a
/// sequence seen before, the encoder replays the order (which entry, which key bytes) instead
/// of ranking and walking the keys again.
///
/// A direct-mapped table of `slotCount` slots by a hash of the sequence, each with room for
/// `slotCapacity` attributes, in flat arrays: nothing is allocated per event. A longer event,
/// or one whose slot holds another sequence, is simply ordered afresh.
package struct AttributeOrderCache {
    /// One attribute to write: the entry's position in the map and its key's bytes.
    struct Step {
        var position: Int32
        var keyStart: Int32
        var keyCount: Int32
    }

    static let slotCount = 64
    static let slotCapacity = 64

    /// Per slot: the key indexes of its sequence (`slotCapacity` each) and their count (-1: empty).
    private var keys = [Int32](repeating: 0, count: slotCount * slotCapacity)
    private var counts = [Int](repeating: -1, count: slotCount)
    private var steps = [Step](repeating: Step(position: 0, keyStart: 0, keyCount: 0), count: slotCount * slotCapacity)

    /// The slot for a sequence of keys: from its length and two of its keys, which tell apart
    /// the few sequences a replay has; the full comparison decides.
    static func slot(for entries: UnsafeBufferPointer<AttributeMap.Entry>) -> Int {
        guard let last = entries.last else { return 0 }
        let middle = entries[entries.count / 2].key.index
        let mixed =
            UInt32(truncatingIfNeeded: entries.count) &* 0x9E37_79B9 ^ UInt32(bitPattern: last.key.index) &* 0x85EB_CA6B
            ^ UInt32(bitPattern: middle) &* 0xC2B2_AE35
        return Int((mixed ^ (mixed >> 15)) & UInt32(slotCount - 1))
    }

    /// Calls `body` with the cached order for exactly these keys; false when there is none.
    func withOrder(
        slot: Int, for entries: UnsafeBufferPointer<AttributeMap.Entry>, _ body: (UnsafeBufferPointer<Step>) -> Void
    ) -> Bool {
        let count = entries.count
        guard counts[slot] == count else { return false }
        let start = slot * Self.slotCapacity
        // In bounds: a slot's count is only ever set by `remember`, which refuses sequences
        // longer than `slotCapacity`, so `start + count` stays inside the slot of `keys` and
        // of `steps` (both `slotCount * slotCapacity` long).
        let same = keys.withUnsafeBufferPointer { keys in
            let cached = keys.baseAddress! + start
            var i = 0
            while i < count {
                if cached[i] != entries[i].key.index { return false }
                i &+= 1
            }
            return true
        }
        guard same else { return false }
        steps.withUnsafeBufferPointer { body(UnsafeBufferPointer(start: $0.baseAddress! + start, count: count)) }
        return true
    }

    /// Remembers the order of one sequence (the steps in writing order), replacing the slot's.
    mutating func remember(slot: Int, for entries: UnsafeBufferPointer<AttributeMap.Entry>, order: [Step]) {
        guard entries.count <= Self.slotCapacity else { return }
        let start = slot * Self.slotCapacity
        for i in entries.indices { keys[start + i] = entries[i].key.index }
        for (i, step) in order.enumerated() { steps[start + i] = step }
        counts[slot] = entries.count
    }

    /// Forgets every order (the key bytes they point into have moved).
    mutating func removeAll() {
        for slot in counts.indices { counts[slot] = -1 }
    }
}
