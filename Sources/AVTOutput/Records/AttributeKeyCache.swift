import AVTCore
import AVTJSON
import Synchronization

/// Per-encoder knowledge about attribute names: their order (`NameRanks`) and each one's key
/// already written as JSON with the comma before it (`,"name":`). Sorting an event's ~30
/// attributes then compares integers, and writing a key is a copy. The table only grows when a
/// name is seen for the first time, which happens a few dozen times per process, not per event.
package struct AttributeKeyCache {
    private(set) var order = NameRanks()
    /// Every key's `,"name":` bytes back to back.
    private(set) var keyBytes = PaddedBytes()
    /// Where each key sits in `keyBytes`, by attribute index.
    private(set) var keySpans: [Range<Int>] = []

    /// Makes sure every attribute index below `limit` has a place in `order` and an encoded key;
    /// returns true when names were added.
    @discardableResult
    mutating func learn(upTo limit: Int) -> Bool {
        guard order.learn(upTo: limit) else { return false }
        for name in order.names[keySpans.count...] {
            var writer = JSONWriter(capacity: name.utf8.count + 4)
            writer.raw(UInt8(ascii: ","))
            writer.string(name)
            writer.raw(UInt8(ascii: ":"))
            keySpans.append(keyBytes.count..<(keyBytes.count + writer.bytes.count))
            keyBytes.append(contentsOf: writer.bytes)
        }
        return true
    }
}

extension AttributeKeyCache {
    /// Every name the process knows, ranked and encoded once for all encoders: each session of a
    /// corpus has its own encoder, and each used to learn the same names afresh. A copy shares
    /// its arrays until it learns a name of its own.
    static func known() -> AttributeKeyCache {
        shared.withLock { cache in
            cache.learn(upTo: cache.order.names.count + 1)
            return cache
        }
    }

    private static let shared = Mutex(AttributeKeyCache())
}
