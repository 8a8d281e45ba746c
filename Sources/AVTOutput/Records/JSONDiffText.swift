import AVTJSON
import AVTTimeline

/// Compact JSON text of a value, for reports.
package enum JSONDiffText {
    package static func render(_ value: JSONValue) -> String {
        var writer = JSONWriter(capacity: 32)
        writer.value(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
