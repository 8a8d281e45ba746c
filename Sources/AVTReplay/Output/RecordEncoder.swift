import AVTCore
import AVTJSON

/// The JSON Lines record of one backend delivery (README "Output"): fixed key order, attribute
/// keys sorted by their UTF-8 bytes, integers as integers, so equal input gives equal bytes.
public struct RecordEncoder {
    /// Tracker names by tracker id, for the `tracker` field.
    public let trackerNames: [String]
    /// Epoch milliseconds of virtual t=0, for the `time` field.
    public let startTime: Int

    public init(trackerNames: [String], startTime: Int) {
        self.trackerNames = trackerNames
        self.startTime = startTime
    }

    public func encode(_ metric: Metric, into w: inout JSONWriter) {
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

    public func encode(_ event: Event, into w: inout JSONWriter) {
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
        // String's `<` orders NFC text by code point, i.e. by UTF-8 bytes, with an ASCII fast path.
        let sorted = event.attributes.sorted { $0.key.name < $1.key.name }
        for (index, (attribute, value)) in sorted.enumerated() {
            if index > 0 { w.raw(UInt8(ascii: ",")) }
            w.string(attribute.name)
            w.raw(UInt8(ascii: ":"))
            switch value {
            case .int(let v): w.int(v)
            case .double(let v): w.double(v)
            case .string(let v): w.string(v)
            case .bool(let v): w.bool(v)
            }
        }
        w.raw("}}\n")
    }

    private func header(t: Int, into w: inout JSONWriter) {
        w.raw("\"t\":")
        w.int(t)
        w.raw(",\"time\":\"")
        ISO8601.append(epochMilliseconds: startTime + t, to: &w.bytes)
        w.raw(UInt8(ascii: "\""))
    }
}

