import AVTCore
import AVTJSON

/// Reads the values of observations that already passed their rule.
package enum PlayerValue {
    /// A JSON number as a Double; nil for null (or anything else).
    package static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    package static func integer(_ value: JSONValue) -> Int? {
        if case .int(let i) = value { return i }
        return nil
    }

    package static func string(_ value: JSONValue) -> String? {
        if case .string(let s) = value { return s }
        return nil
    }

    package static func bool(_ value: JSONValue) -> Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    /// A member of a JSON object, if present.
    package static func member(_ key: String, of value: JSONValue) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.node.value
    }

    /// `{"width": w, "height": h}` (already checked by `ObservationRule.size`).
    package static func size(_ value: JSONValue) -> (width: Double, height: Double)? {
        guard let w = member("width", of: value).flatMap(number), let h = member("height", of: value).flatMap(number)
        else { return nil }
        return (w, h)
    }
}
