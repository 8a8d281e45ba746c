import AVTCore
import AVTJSON

/// What the KPI calculator needs from one delivered record, taken either from the live engine
/// (an Event or Metric during a replay) or from a recorded JSONL event log.
package struct KPIObservation: Sendable {
    package var isMetric: Bool
    package var t: Int
    /// The action of an event or the name of a metric.
    package var name: String
    package var value: Double?
    package var playbackId: String?
    package var inPlaybackBlock = false
    package var inPauseBlock = false
    package var inSeekBlock = false
    /// Integer attributes the KPIs read (timeSince…, deltaPlayTime, bitrate, resolutionHeight).
    package var numbers: [String: Int] = [:]

    static let numberKeys = [
        "timeSinceMediaRequest", "timeSinceStreamLoad", "timeSincePauseBegin", "timeSinceSeekBegin",
        "timeSinceBufferBegin", "timeSinceAdBegin", "timeSinceAdBreakBegin", "deltaPlayTime", "bitrate",
        "resolutionHeight",
    ]
    static let numberAttributes = numberKeys.map { Attribute($0) }

    package init(event: Event) {
        isMetric = false
        t = event.timestamp
        name = event.action.name
        playbackId = event[.playbackId]?.stringValue
        inPlaybackBlock = event[.inPlaybackBlock] == .bool(true)
        inPauseBlock = event[.inPauseBlock] == .bool(true)
        inSeekBlock = event[.inSeekBlock] == .bool(true)
        for (key, attribute) in zip(Self.numberKeys, Self.numberAttributes) {
            if let v = event[attribute]?.intValue { numbers[key] = v }
        }
    }

    package init(metric: Metric) {
        isMetric = true
        t = metric.timestamp
        name = metric.name
        switch metric.value {
        case .int(let v): value = Double(v)
        case .double(let v): value = v
        }
    }

    package init(record: OutputRecord) {
        isMetric = record.type == "metric"
        t = record.t ?? 0
        name = record.label
        switch record.value {
        case .int(let v)?: value = Double(v)
        case .double(let v)?: value = v
        default: value = nil
        }
        for (key, v) in record.attributes {
            switch (key, v) {
            case ("playbackId", .string(let s)): playbackId = s
            case ("inPlaybackBlock", .bool(let b)): inPlaybackBlock = b
            case ("inPauseBlock", .bool(let b)): inPauseBlock = b
            case ("inSeekBlock", .bool(let b)): inSeekBlock = b
            case (_, .int(let i)) where Self.numberKeys.contains(key): numbers[key] = i
            default: break
            }
        }
    }
}
