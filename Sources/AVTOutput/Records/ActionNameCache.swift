import AVTCore
import AVTJSON

/// Per-encoder JSON spellings of action names (`"Start"`), indexed by `Action.index`, so an
/// event's action costs a copy instead of a name-table lookup and an escape.
package struct ActionNameCache {
    private(set) var bytes = PaddedBytes()
    private(set) var spans: [Range<Int>] = []

    mutating func learn(upTo limit: Int) {
        guard limit > spans.count else { return }
        for name in Action.names(fromIndex: spans.count) {
            var writer = JSONWriter(capacity: name.utf8.count + 2)
            writer.string(name)
            spans.append(bytes.count..<(bytes.count + writer.bytes.count))
            bytes.append(contentsOf: writer.bytes)
        }
    }
}
