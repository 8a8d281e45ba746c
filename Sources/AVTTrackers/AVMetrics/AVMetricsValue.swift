import AVTFormats
import AVTJSON

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
