import AVTFormats
import AVTJSON

/// One AVMetrics event as observed in a step (or a line of a log), already checked against
/// `AVMetricsSchema`: its class, and its properties by Apple's names.
public struct AVMetricsRecord: Sendable {
    /// The class name, e.g. `AVMetricPlayerItemStallEvent`.
    public var event: String
    public var properties: [String: JSONValue]

    public init(event: String, properties: [String: JSONValue]) {
        self.event = event
        self.properties = properties
    }

    /// From a step's observations (nil when there is no `event`).
    package init?(_ observations: [Observation]) {
        guard let name = observations.first(where: { $0.key == "event" }).flatMap({ PlayerValue.string($0.value) }) else {
            return nil
        }
        event = name
        properties = [:]
        for observation in observations where observation.key != "event" { properties[observation.key] = observation.value }
    }

    /// From a nested event object (the requests of an initial likely-to-keep-up event).
    package init(className: String, object: JSONValue) {
        event = className
        properties = [:]
        if case .object(let members) = object {
            for member in members where member.key != "event" { properties[member.key] = member.node.value }
        }
    }

    public subscript(_ key: String) -> JSONValue? { properties[key] }

    /// `date` in epoch milliseconds.
    public var date: Int? { properties["date"].flatMap(AVMetricsValue.date) }
    public func number(_ key: String) -> Double? { properties[key].flatMap(PlayerValue.number) }
    public func bool(_ key: String) -> Bool? { properties[key].flatMap(PlayerValue.bool) }
    public func integer(_ key: String) -> Int? { properties[key].flatMap(PlayerValue.integer) }
    public func variant(_ key: String) -> AVMetricsVariant? { properties[key].map(AVMetricsVariant.init) }
}

/// An AVAssetVariant as far as OpenAVT cares: bitrates (bps) and picture size.
public struct AVMetricsVariant: Sendable, Equatable {
    public var peakBitRate: Double?
    public var averageBitRate: Double?
    public var width: Double?
    public var height: Double?
    public var frameRate: Double?

    public init(peakBitRate: Double? = nil, averageBitRate: Double? = nil, width: Double? = nil, height: Double? = nil) {
        self.peakBitRate = peakBitRate
        self.averageBitRate = averageBitRate
        self.width = width
        self.height = height
    }

    init(_ value: JSONValue) {
        peakBitRate = PlayerValue.member("peakBitRate", of: value).flatMap(PlayerValue.number)
        averageBitRate = PlayerValue.member("averageBitRate", of: value).flatMap(PlayerValue.number)
        let attributes = PlayerValue.member("videoAttributes", of: value)
        let size = (PlayerValue.member("presentationSize", of: value) ?? attributes.flatMap { PlayerValue.member("presentationSize", of: $0) })
            .flatMap(PlayerValue.size)
        width = size?.width
        height = size?.height
        frameRate = attributes.flatMap { PlayerValue.member("nominalFrameRate", of: $0) }.flatMap(PlayerValue.number)
    }

    /// The bitrate the tracker reports and compares: the average (HLS AVERAGE-BANDWIDTH) when
    /// known, else the peak (BANDWIDTH).
    public var bitrate: Double? { averageBitRate ?? peakBitRate }

    /// Whether `self` is a higher (+1), lower (−1) or the same (0) quality as `other`: by the
    /// bitrate both know (average if both have it, else peak), then by picture area; nil when
    /// nothing is comparable.
    func compare(to other: AVMetricsVariant) -> Int? {
        let pair: (Double, Double)? =
            if let a = averageBitRate, let b = other.averageBitRate { (a, b) }
            else if let a = peakBitRate, let b = other.peakBitRate { (a, b) }
            else { nil }
        if let pair, pair.0 != pair.1 { return pair.0 > pair.1 ? 1 : -1 }
        if let w = width, let h = height, let ow = other.width, let oh = other.height, w * h != ow * oh {
            return w * h > ow * oh ? 1 : -1
        }
        return pair == nil && (width == nil || other.width == nil) ? nil : 0
    }
}

/// Reading AVMetrics values that passed their shape.
package enum AVMetricsValue {
    package static func date(_ value: JSONValue) -> Int? {
        if case .string(let text) = value { return ISO8601.parse(text) }
        return nil
    }

    /// Seconds to integer ms, rounded to the nearest (Apple's TimeIntervals are Doubles).
    package static func milliseconds(fromSeconds seconds: Double) -> Int? {
        truncatedInt((seconds * 1000).rounded())
    }

    /// An NSError object as one line: its description, else `domain code`.
    package static func errorDescription(_ value: JSONValue) -> String? {
        if let text = PlayerValue.member("localizedDescription", of: value).flatMap(PlayerValue.string) { return text }
        let domain = PlayerValue.member("domain", of: value).flatMap(PlayerValue.string)
        let code = PlayerValue.member("code", of: value).flatMap(PlayerValue.integer)
        let parts = [domain, code.map(String.init)].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
