import AVTCore
import AVTJSON

/// Writes records as line protocol, keeping the per-instant ordinal that makes points unique.
package struct InfluxLineWriter {
    package let encoder: InfluxLineEncoder
    package let records: RecordEncoder
    private var lastTimestamp = Int.min
    private var ordinal = 0
    /// Field keys by attribute index: rank in name order and escaped bytes (see InfluxFieldKeys).
    private var keys = InfluxFieldKeys()
    /// Reused per event: its attributes as (rank, key, value), sorted by name.
    private var fields: [(rank: Int32, key: Attribute, value: AttributeValue)] = []
    /// Indexes of the attributes written as tags (not fields).
    private lazy var tagIndexes: Set<Int32> = Set(encoder.tags.map { Attribute($0).index })

    package init(encoder: InfluxLineEncoder, records: RecordEncoder) {
        self.encoder = encoder
        self.records = records
    }

    /// The event's attributes in name order (the order `--format jsonl` writes them): ranks
    /// are cached per attribute, so sorting compares integers, not names.
    private mutating func sortedFields(_ event: Event) {
        var highest = -1
        event.attributes.forEachEntry { key, _ in highest = max(highest, Int(key.index)) }
        keys.learn(upTo: highest + 1)
        fields.removeAll(keepingCapacity: true)
        let order = keys.order
        var ranked = true
        event.attributes.forEachEntry { key, value in
            let rank = order.rank(Int(key.index))
            ranked = ranked && rank != Int32.max
            fields.append((rank, key, value))
        }
        // Insertion sort for the usual ~30 entries, often nearly in order; a full sort when the
        // event is large (insertion sort is quadratic) or some names have no rank yet.
        guard ranked, fields.count <= 64 else {
            fields.sort { order.precedes(Int($0.key.index), Int($1.key.index)) }
            return
        }
        for i in fields.indices.dropFirst() {
            let entry = fields[i]
            var j = i
            while j > 0, fields[j - 1].rank > entry.rank {
                fields[j] = fields[j - 1]
                j -= 1
            }
            fields[j] = entry
        }
    }

    package mutating func write(_ event: Event, into w: inout JSONBuffer) {
        sortedFields(event)
        let tracker = event.trackerId.flatMap {
            records.trackerNames.indices.contains($0) ? records.trackerNames[$0] : nil
        }
        if encoder.compat {
            w.raw(encoder.eventsMeasurement)
            w.raw(" action=\"")
            w.raw(event.action.name)
            w.raw("\"")
            for field in fields {
                w.raw(",")
                w.raw(keys.names[Int(field.key.index)])
                w.raw("=")
                compatValue(field.value, into: &w)
            }
            w.raw(" ")
            w.int((records.startTime + event.timestamp) * 1_000_000)
            w.raw("\n")
            return
        }
        var tagPairs: [(String, String)] = []
        for tag in encoder.tags {
            switch tag {
            case "action": tagPairs.append(("action", event.action.name))
            case "tracker": if let tracker { tagPairs.append(("tracker", tracker)) }
            default: if let value = event[Attribute(tag)] { tagPairs.append((tag, value.description)) }
            }
        }
        let tags = tagIndexes
        let stamp = head(measurement: encoder.eventsMeasurement, tags: tagPairs, t: event.timestamp, into: &w)
        var first = true
        for field in fields where !tags.contains(field.key.index) {
            if !first { w.raw(",") }
            first = false
            keys.escaped[Int(field.key.index)].withUnsafeBufferPointer { w.raw($0) }
            w.raw("=")
            fieldValue(field.value, into: &w)
        }
        if first {
            w.raw("t=")
            fieldValue(.int(event.timestamp), into: &w)
        }
        tail(stamp, into: &w)
    }

    package mutating func write(_ metric: Metric, into w: inout JSONBuffer) {
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
        let stamp = head(measurement: encoder.metricsMeasurement, tags: [], t: metric.timestamp, into: &w)
        escaped(metric.name, special: Self.keySpecials, into: &w)
        w.raw("=")
        fieldValue(value, into: &w)
        tail(stamp, into: &w)
    }

    /// Bytes escaped in measurements, and in tag keys, tag values and field keys.
    static let measurementSpecials: [UInt8] = [0x2C, 0x20]
    static let keySpecials: [UInt8] = [0x2C, 0x3D, 0x20]

    /// Measurement and tags (with `session` and the `seq` that keeps points unique), then the
    /// space before the fields; returns the timestamp to write after them.
    private mutating func head(measurement: String, tags: [(String, String)], t: Int, into w: inout JSONBuffer) -> Int {
        let ms = records.startTime + t
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        // The ordinal counts records sharing the timestamp as written (a second with precision s).
        let written = encoder.precision == .s ? seconds : ms
        if written == lastTimestamp { ordinal += 1 } else { (lastTimestamp, ordinal) = (written, 0) }
        var tags = tags
        if let session = records.session { tags.append(("session", session)) }
        let subMillisecond = encoder.precision == .ns || encoder.precision == .us
        if !subMillisecond, ordinal > 0 { tags.append(("seq", String(ordinal))) }
        escaped(measurement, special: Self.measurementSpecials, into: &w)
        for (key, value) in tags.sorted(by: { $0.0 < $1.0 }) where !value.isEmpty {
            w.raw(",")
            escaped(key, special: Self.keySpecials, into: &w)
            w.raw("=")
            escaped(value, special: Self.keySpecials, into: &w)
        }
        w.raw(" ")
        switch encoder.precision {
        case .ns, .us: return ms * encoder.precision.perMillisecond + ordinal
        case .ms: return ms
        case .s: return seconds
        }
    }

    private func tail(_ timestamp: Int, into w: inout JSONBuffer) {
        w.raw(" ")
        w.int(timestamp)
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
    static func escaped(_ text: String, special: [UInt8], into w: inout JSONBuffer) {
        for byte in text.utf8 {
            if special.contains(byte) || byte == 0x5C { w.raw(0x5C) }
            w.raw(byte == 0x0A || byte == 0x0D ? 0x20 : byte)
        }
    }

    private func escaped(_ text: String, special: [UInt8], into w: inout JSONBuffer) {
        Self.escaped(text, special: special, into: &w)
    }
}
