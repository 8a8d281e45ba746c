import AVTCore
import AVTJSON

/// The JSON Lines record of one backend delivery (README "Output"): fixed key order, attribute
/// keys sorted by their UTF-8 bytes, integers as integers, so equal input gives equal bytes.
public struct RecordEncoder {
    /// Tracker names by tracker id, for the `tracker` field.
    public let trackerNames: [String]
    /// Epoch milliseconds of virtual t=0, for the `time` field.
    public let startTime: Int
    /// The `session` field (the input's path) when a run replays several inputs; nil omits it.
    public let session: String?
    private var keys = AttributeKeyCache()
    /// Reused per event: (rank << 32 | position) of each attribute, sorted.
    private var order: [Int] = []

    public init(trackerNames: [String], startTime: Int, session: String? = nil) {
        self.trackerNames = trackerNames
        self.startTime = startTime
        self.session = session
    }

    public mutating func encode(_ metric: Metric, into w: inout JSONWriter) {
        w.raw("{\"type\":\"metric\",")
        header(t: metric.timestamp, into: &w)
        w.raw(",\"name\":")
        w.string(metric.name)
        w.raw(",\"metricType\":")
        w.string(metric.kind.rawValue)
        w.raw(",\"value\":")
        switch metric.value {
        case .int(let v): w.int(v)
        case .double(let v): w.double(v)
        }
        w.raw("}\n")
    }

    public mutating func encode(_ event: Event, into w: inout JSONWriter) {
        w.raw("{\"type\":\"event\",")
        header(t: event.timestamp, into: &w)
        w.raw(",\"action\":")
        w.string(event.action.name)
        w.raw(",\"tracker\":")
        if let id = event.trackerId, trackerNames.indices.contains(id) {
            w.string(trackerNames[id])
        } else {
            w.null()
        }
        w.raw(",\"attributes\":{")
        writeAttributes(event.attributes, into: &w)
        w.raw("}}\n")
    }

    /// Attributes in name order. Sorting packed integers (rank << 32 | position) needs no
    /// comparator closure and no string comparison.
    private mutating func writeAttributes(_ attributes: AttributeMap, into w: inout JSONWriter) {
        var highest = -1
        attributes.forEachEntry { key, _ in highest = max(highest, Int(key.index)) }
        keys.learn(upTo: highest + 1)
        order.removeAll(keepingCapacity: true)
        var position = 0
        attributes.forEachEntry { key, _ in
            order.append(Int(keys.ranks[Int(key.index)]) << 32 | position)
            position += 1
        }
        order.sort()
        for (n, packed) in order.enumerated() {
            if n > 0 { w.raw(UInt8(ascii: ",")) }
            let (key, value) = attributes.entry(at: packed & 0xFFFF_FFFF)
            w.bytes.append(contentsOf: keys.encodedKeys[Int(key.index)])
            switch value {
            case .int(let v): w.int(v)
            case .double(let v): w.double(v)
            case .string(let v): w.string(v)
            case .bool(let v): w.bool(v)
            }
        }
    }

    private func header(t: Int, into w: inout JSONWriter) {
        if let session {
            w.raw("\"session\":")
            w.string(session)
            w.raw(UInt8(ascii: ","))
        }
        w.raw("\"t\":")
        w.int(t)
        w.raw(",\"time\":\"")
        ISO8601.append(epochMilliseconds: startTime + t, to: &w.bytes)
        w.raw(UInt8(ascii: "\""))
    }
}

