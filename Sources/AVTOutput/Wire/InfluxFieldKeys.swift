import AVTCore
import AVTJSON

/// Per-writer knowledge about attribute names as line-protocol field keys: their order
/// (`NameRanks`) and each one's escaped bytes. The table only grows when a name is first seen.
package struct InfluxFieldKeys {
    private(set) var order = NameRanks()
    private(set) var escaped: [[UInt8]] = []
    var names: [String] { order.names }
    /// What writing each name as a field key changed (see `InfluxLineWriter.name`).
    private(set) var rewrites: [InfluxLineWriter.Rewrite] = []

    mutating func learn(upTo limit: Int) {
        guard order.learn(upTo: limit) else { return }
        for name in order.names[escaped.count...] {
            var w = JSONBuffer(capacity: name.utf8.count * 2)
            rewrites.append(InfluxLineWriter.name(name, as: .fieldKey, into: &w))
            escaped.append(w.bytes)
        }
    }
}
