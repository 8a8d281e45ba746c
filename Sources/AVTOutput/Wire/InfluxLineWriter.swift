import AVTCore
import AVTJSON

/// Writes records as line protocol, keeping the per-instant ordinal that makes points unique.
package struct InfluxLineWriter {
    package let encoder: InfluxLineEncoder
    package let records: RecordEncoder
    private var lastTimestamp = Int.min
    private var ordinal = 0
    /// With `compat`: the last time written per measurement (events, metrics), and how many
    /// points a later one of the same measurement and time has overwritten (compat lines have
    /// no tags, so InfluxDB keeps one point per measurement and time).
    private var compatLast = (events: Int.min, metrics: Int.min)
    package private(set) var compatOverwritten = 0
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
            if compatLast.events == event.timestamp { compatOverwritten += 1 }
            compatLast.events = event.timestamp
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
        var (stamp, rewrite) = head(
            measurement: encoder.eventsMeasurement, tags: tagPairs, t: event.timestamp, into: &w)
        var first = true
        for field in fields where !tags.contains(field.key.index) {
            if !first { w.raw(",") }
            first = false
            rewrite.formUnion(keys.rewrites[Int(field.key.index)])
            keys.escaped[Int(field.key.index)].withUnsafeBufferPointer { w.raw($0) }
            w.raw("=")
            fieldValue(field.value, into: &w)
        }
        if first {
            w.raw("t=")
            fieldValue(.int(event.timestamp), into: &w)
        }
        tail(stamp, into: &w)
        if !rewrite.isEmpty { encoder.rewrites.add(rewrite) }
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
            if compatLast.metrics == metric.timestamp { compatOverwritten += 1 }
            compatLast.metrics = metric.timestamp
            return
        }
        var (stamp, rewrite) = head(measurement: encoder.metricsMeasurement, tags: [], t: metric.timestamp, into: &w)
        rewrite.formUnion(Self.name(metric.name, as: .fieldKey, into: &w))
        w.raw("=")
        fieldValue(value, into: &w)
        tail(stamp, into: &w)
        if !rewrite.isEmpty { encoder.rewrites.add(rewrite) }
    }

    /// What writing a name changed, for the run's warnings.
    package struct Rewrite: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A newline or CR, or a backslash InfluxDB would read as an escape.
        static let replaced = Rewrite(rawValue: 1)
        /// A field or tag named `time`.
        static let renamedTime = Rewrite(rawValue: 2)
    }

    /// Where a name goes in a line: each escapes its own characters (measured on InfluxDB 1.6,
    /// docs/destinations.md).
    enum NamePlace {
        case measurement, tagKey, tagValue, fieldKey

        /// Escaped with a backslash.
        var specials: [UInt8] { self == .measurement ? [0x2C, 0x20] : [0x2C, 0x3D, 0x20] }
        /// Characters before which a backslash of the name would be read as an escape. Tag keys
        /// and values read `\\,` as a backslash and a comma; measurements and field keys do not
        /// (a field key also reads `\"` as `"`).
        var guarded: [UInt8] {
            switch self {
            case .measurement: [0x2C, 0x20]
            case .tagKey, .tagValue: []
            case .fieldKey: [0x2C, 0x3D, 0x20, 0x22]
            }
        }
    }

    /// Writes a name so that InfluxDB stores it as it is: `,`, `=` and space get a backslash;
    /// a backslash is written as it is (InfluxDB keeps one that escapes nothing: a doubled one
    /// would be stored doubled). What line protocol cannot carry is replaced, and reported:
    /// - a newline or CR (it ends the line) becomes `\n` or `\r`;
    /// - a backslash at the end of the name, or one InfluxDB would read as escaping the next
    ///   character (see `NamePlace.guarded`), is followed by `_`;
    /// - a field or tag key named `time`, which InfluxDB drops, becomes `time_`.
    @discardableResult
    static func name(_ text: String, as place: NamePlace, into w: inout JSONBuffer) -> Rewrite {
        if place == .fieldKey || place == .tagKey, text == "time" {
            w.raw("time_")
            return .renamedTime
        }
        let specials = place.specials
        let guarded = place.guarded
        var rewrite: Rewrite = []
        var afterBackslash = false
        for byte in text.utf8 {
            if afterBackslash, guarded.contains(byte) {
                w.raw(0x5F)
                rewrite = .replaced
            }
            switch byte {
            case 0x0A:
                w.raw("\\n")
                rewrite = .replaced
            case 0x0D:
                w.raw("\\r")
                rewrite = .replaced
            default:
                if specials.contains(byte) { w.raw(0x5C) }
                w.raw(byte)
            }
            afterBackslash = byte == 0x5C
        }
        if afterBackslash {
            w.raw(0x5F)
            rewrite = .replaced
        }
        return rewrite
    }

    /// Measurement and tags (with `session` and the `seq` that keeps points unique), then the
    /// space before the fields; returns the timestamp to write after them, and what writing the
    /// names changed.
    private mutating func head(
        measurement: String, tags: [(String, String)], t: Int, into w: inout JSONBuffer
    ) -> (Int, Rewrite) {
        let ms = records.startTime + t
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        // The ordinal counts records sharing the timestamp as written (a second with precision s).
        let written = encoder.precision == .s ? seconds : ms
        if written == lastTimestamp { ordinal += 1 } else { (lastTimestamp, ordinal) = (written, 0) }
        var tags = tags
        if let session = records.seriesSession { tags.append(("session", session)) }
        tags += records.labels.map { ($0.name, $0.value) }
        let subMillisecond = encoder.precision == .ns || encoder.precision == .us
        if !subMillisecond, ordinal > 0 { tags.append(("seq", String(ordinal))) }
        var rewrite = Self.name(measurement, as: .measurement, into: &w)
        for (key, value) in tags.sorted(by: { $0.0 < $1.0 }) where !value.isEmpty {
            w.raw(",")
            rewrite.formUnion(Self.name(key, as: .tagKey, into: &w))
            w.raw("=")
            rewrite.formUnion(Self.name(value, as: .tagValue, into: &w))
        }
        w.raw(" ")
        switch encoder.precision {
        case .ns, .us: return (ms * encoder.precision.perMillisecond + ordinal, rewrite)
        case .ms: return (ms, rewrite)
        case .s: return (seconds, rewrite)
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
            // Inside a string only `"` and `\` are escaped. A newline, CR or tab is sent as it
            // is: InfluxDB reads a quoted string across lines and stores it exactly.
            for byte in s.utf8 {
                if byte == 0x22 || byte == 0x5C { w.raw(0x5C) }
                w.raw(byte)
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

}
