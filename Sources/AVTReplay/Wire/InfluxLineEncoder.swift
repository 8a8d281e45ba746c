import AVTCore
import AVTJSON

/// InfluxDB line protocol for avtreplay's records (field reference 4.1).
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
public struct InfluxLineEncoder: Sendable {
    public enum Precision: String, Sendable, CaseIterable {
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

    public var eventsMeasurement = "OAVT_EVENTS"
    public var metricsMeasurement = "OAVT_METRICS"
    /// Event attributes written as tags instead of fields (`action` and `tracker` are the
    /// record's own fields; any other name is taken from the attributes).
    public var tags = ["action", "tracker"]
    public var precision = Precision.ms
    public var compat = false

    public init() {}
}

/// Writes records as line protocol, keeping the per-instant ordinal that makes points unique.
public struct InfluxLineWriter {
    public let encoder: InfluxLineEncoder
    public let records: RecordEncoder
    private var lastTimestamp = Int.min
    private var ordinal = 0

    public init(encoder: InfluxLineEncoder, records: RecordEncoder) {
        self.encoder = encoder
        self.records = records
    }

    public mutating func write(_ event: Event, into w: inout JSONBuffer) {
        let attributes = event.attributes.sorted { $0.key.name < $1.key.name }
        let tracker = event.trackerId.flatMap { records.trackerNames.indices.contains($0) ? records.trackerNames[$0] : nil }
        if encoder.compat {
            w.raw(encoder.eventsMeasurement)
            w.raw(" action=\"")
            w.raw(event.action.name)
            w.raw("\"")
            for (key, value) in attributes {
                w.raw(",")
                w.raw(key.name)
                w.raw("=")
                compatValue(value, into: &w)
            }
            w.raw(" ")
            w.int((records.startTime + event.timestamp) * 1_000_000)
            w.raw("\n")
            return
        }
        var tagPairs: [(String, String)] = []
        var fieldPairs: [(String, AttributeValue)] = []
        for tag in encoder.tags {
            switch tag {
            case "action": tagPairs.append(("action", event.action.name))
            case "tracker": if let tracker { tagPairs.append(("tracker", tracker)) }
            default: if let value = event[Attribute(tag)] { tagPairs.append((tag, value.description)) }
            }
        }
        for (key, value) in attributes where !encoder.tags.contains(key.name) { fieldPairs.append((key.name, value)) }
        if fieldPairs.isEmpty { fieldPairs.append(("t", .int(event.timestamp))) }
        line(measurement: encoder.eventsMeasurement, tags: tagPairs, fields: fieldPairs, t: event.timestamp, into: &w)
    }

    public mutating func write(_ metric: Metric, into w: inout JSONBuffer) {
        let value: AttributeValue
        switch metric.value {
        case .int(let v): value = .int(v)
        case .double(let v): value = .double(v)
        }
        if encoder.compat {
            w.raw(encoder.metricsMeasurement)
            w.raw(" ")
            w.raw(metric.name)
            w.raw("=")
            compatValue(value, into: &w)
            w.raw(" ")
            w.int((records.startTime + metric.timestamp) * 1_000_000)
            w.raw("\n")
            return
        }
        line(measurement: encoder.metricsMeasurement, tags: [], fields: [(metric.name, value)], t: metric.timestamp, into: &w)
    }

    private mutating func line(
        measurement: String, tags: [(String, String)], fields: [(String, AttributeValue)], t: Int, into w: inout JSONBuffer
    ) {
        let ms = records.startTime + t
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        // The ordinal counts records sharing the timestamp as written (a second with precision s).
        let written = encoder.precision == .s ? seconds : ms
        if written == lastTimestamp { ordinal += 1 } else { (lastTimestamp, ordinal) = (written, 0) }
        var tags = tags
        if let session = records.session { tags.append(("session", session)) }
        let subMillisecond = encoder.precision == .ns || encoder.precision == .us
        if !subMillisecond, ordinal > 0 { tags.append(("seq", String(ordinal))) }
        escaped(measurement, special: [0x2C, 0x20], into: &w)
        for (key, value) in tags.sorted(by: { $0.0 < $1.0 }) where !value.isEmpty {
            w.raw(",")
            escaped(key, special: [0x2C, 0x3D, 0x20], into: &w)
            w.raw("=")
            escaped(value, special: [0x2C, 0x3D, 0x20], into: &w)
        }
        w.raw(" ")
        for (n, (key, value)) in fields.enumerated() {
            if n > 0 { w.raw(",") }
            escaped(key, special: [0x2C, 0x3D, 0x20], into: &w)
            w.raw("=")
            fieldValue(value, into: &w)
        }
        w.raw(" ")
        switch encoder.precision {
        case .ns, .us: w.int(ms * encoder.precision.perMillisecond + ordinal)
        case .ms: w.int(ms)
        case .s: w.int(seconds)
        }
        w.raw("\n")
    }

    private func fieldValue(_ value: AttributeValue, into w: inout JSONBuffer) {
        switch value {
        case .int(let v):
            w.int(v)
            w.raw("i")
        case .double(let v):
            // Line protocol has no NaN or infinity; such values cannot come from JSON input.
            w.raw(v.isFinite ? v.description : "0")
        case .bool(let v): w.bool(v)
        case .string(let s):
            w.raw("\"")
            // Inside a string only `"` and `\` are escaped; a newline cannot be sent, so it is
            // written as the two characters `\n`.
            for byte in s.utf8 {
                switch byte {
                case 0x22, 0x5C:
                    w.raw(0x5C)
                    w.raw(byte)
                case 0x0A: w.raw("\\\\n")
                case 0x0D: w.raw("\\\\r")
                default: w.raw(byte)
                }
            }
            w.raw("\"")
        }
    }

    private func compatValue(_ value: AttributeValue, into w: inout JSONBuffer) {
        switch value {
        case .string(let s):
            w.raw("\"")
            w.raw(s)
            w.raw("\"")
        default: w.raw(value.description)
        }
    }

    /// Backslash before each special byte and before a backslash (two read as one); newlines
    /// (unsendable) become spaces.
    private func escaped(_ text: String, special: [UInt8], into w: inout JSONBuffer) {
        for byte in text.utf8 {
            if special.contains(byte) || byte == 0x5C { w.raw(0x5C) }
            w.raw(byte == 0x0A || byte == 0x0D ? 0x20 : byte)
        }
    }
}

extension JSONBuffer {
    /// Appends a String's UTF-8 bytes as they are (no quoting or escaping).
    public mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { raw($0) }
    }
}
