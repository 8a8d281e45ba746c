import AVTCore
import AVTJSON

/// InfluxDB line protocol for avtreplay's records.
///
/// Default format: `OAVT_EVENTS,action=Start,tracker=content <attributes as fields> <time>` and
/// `OAVT_METRICS <Name>=<value> <time>`, with full escaping, integers as `42i`, and every point
/// unique: InfluxDB keeps one point per measurement + tag set + timestamp, and a virtual clock
/// puts several records on one millisecond. With ns or us precision the record's ordinal within
/// its millisecond goes into the sub-millisecond digits; with ms or s precision its ordinal among
/// the records of that written timestamp becomes a `seq` tag (absent for the first).
///
/// `compat` reproduces upstream OpenAVT's lines byte for byte: no tags (`action="Start"` is a
/// field), no `i` suffix (integers become floats), no escaping, nanosecond timestamps, duplicates
/// left to overwrite one another.
package struct InfluxLineEncoder: Sendable {
    package enum Precision: String, Sendable, CaseIterable {
        case ns, us, ms, s

        /// Units per millisecond (s: 1/1000, handled by division).
        var perMillisecond: Int {
            switch self {
            case .ns: return 1_000_000
            case .us: return 1000
            case .ms, .s: return 1
            }
        }
    }

    package var eventsMeasurement = "OAVT_EVENTS"
    package var metricsMeasurement = "OAVT_METRICS"
    /// Event attributes written as tags instead of fields (`action` and `tracker` are the
    /// record's own fields; any other name is taken from the attributes).
    package var tags = ["action", "tracker"]
    package var precision = Precision.ms
    package var compat = false
    /// Shared by every copy of this encoder: what its writers had to rewrite.
    package var rewrites = InfluxNameRewrites()

    package init() {}
}

extension JSONBuffer {
    /// Appends a String's UTF-8 bytes as they are (no quoting or escaping).
    package mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { raw($0) }
    }
}
