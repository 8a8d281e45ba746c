import AVTFormats
import AVTJSON

/// One AVMetrics event as observed in a step (or a line of a log), already checked against
/// `AVMetricsSchema`: its class, and its properties by Apple's names.
package struct AVMetricsRecord: Sendable {
    /// The class name, e.g. `AVMetricPlayerItemStallEvent`.
    package var event: String
    package var properties: [String: JSONValue]

    package init(event: String, properties: [String: JSONValue]) {
        self.event = event
        self.properties = properties
    }

    /// From a step's observations (nil when there is no `event`).
    package init?(_ observations: [Observation]) {
        guard let name = observations.first(where: { $0.key == "event" }).flatMap({ PlayerValue.string($0.value) })
        else {
            return nil
        }
        event = name
        properties = [:]
        for observation in observations where observation.key != "event" {
            properties[observation.key] = observation.value
        }
    }

    /// From a nested event object (the requests of an initial likely-to-keep-up event).
    package init(className: String, object: JSONValue) {
        event = className
        properties = [:]
        if case .object(let members) = object {
            for member in members where member.key != "event" { properties[member.key] = member.node.value }
        }
    }

    package subscript(_ key: String) -> JSONValue? { properties[key] }

    /// `date` in epoch milliseconds.
    package var date: Int? { properties["date"].flatMap(AVMetricsValue.date) }
    package func number(_ key: String) -> Double? { properties[key].flatMap(PlayerValue.number) }
    package func bool(_ key: String) -> Bool? { properties[key].flatMap(PlayerValue.bool) }
    package func integer(_ key: String) -> Int? { properties[key].flatMap(PlayerValue.integer) }
    package func variant(_ key: String) -> AVMetricsVariant? { properties[key].map(AVMetricsVariant.init) }
}
