import AVTCore
import AVTJSON

/// Per-writer knowledge about attribute names as line-protocol field keys: each one's rank in
/// name order and its escaped bytes. The table only grows when a name is first seen.
package struct InfluxFieldKeys {
    private(set) var ranks: [Int32] = []
    private(set) var escaped: [[UInt8]] = []
    /// What writing each name as a field key changed (see `InfluxLineWriter.name`).
    private(set) var rewrites: [InfluxLineWriter.Rewrite] = []
    private(set) var names: [String] = []

    mutating func learn(upTo limit: Int) {
        guard limit > names.count else { return }
        names.append(contentsOf: Attribute.names(fromIndex: names.count))
        for name in names[escaped.count...] {
            var w = JSONBuffer(capacity: name.utf8.count * 2)
            rewrites.append(InfluxLineWriter.name(name, as: .fieldKey, into: &w))
            escaped.append(w.bytes)
        }
        // String's `<` orders by code point, as the JSON encoder's key order.
        ranks = [Int32](repeating: 0, count: names.count)
        for (rank, index) in names.indices.sorted(by: { names[$0] < names[$1] }).enumerated() {
            ranks[index] = Int32(rank)
        }
    }
}
