import AVTCore
import AVTJSON

/// Per-encoder knowledge about attribute names: each one's rank in name order and its key
/// already written as JSON with the comma before it (`,"name":`). Sorting an event's ~30
/// attributes then compares integers, and writing a key is a copy. The table only grows when a
/// name is seen for the first time, which happens a few dozen times per process, not per event.
package struct AttributeKeyCache {
    private(set) var ranks: [Int32] = []
    /// Every key's `,"name":` bytes back to back.
    private(set) var keyBytes = PaddedBytes()
    /// Where each key sits in `keyBytes`, by attribute index.
    private(set) var keySpans: [Range<Int>] = []
    private var names: [String] = []

    /// Makes sure every attribute index below `limit` has a rank and an encoded key.
    mutating func learn(upTo limit: Int) {
        guard limit > names.count else { return }
        names.append(contentsOf: Attribute.names(fromIndex: names.count))
        for name in names[keySpans.count...] {
            var writer = JSONWriter(capacity: name.utf8.count + 4)
            writer.raw(UInt8(ascii: ","))
            writer.string(name)
            writer.raw(UInt8(ascii: ":"))
            keySpans.append(keyBytes.count..<(keyBytes.count + writer.bytes.count))
            keyBytes.append(contentsOf: writer.bytes)
        }
        // String's `<` orders NFC text by code point (= by UTF-8 bytes), like `sort_keys` tools.
        ranks = [Int32](repeating: 0, count: names.count)
        for (rank, index) in names.indices.sorted(by: { names[$0] < names[$1] }).enumerated() {
            ranks[index] = Int32(rank)
        }
    }
}
