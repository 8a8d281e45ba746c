import AVTJSON

/// One player observation of an `observe` step: a property of the player (or a one-shot signal
/// such as `notification`) and its new value, with where it was written for error messages.
public struct Observation: Sendable, Equatable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// What an observation key accepts, checked when the timeline is read so a replay never starts
/// on a value a tracker would have to guess about.
public struct ObservationRule: Sendable {
    /// For the README and error messages, e.g. `"readyToPlay" | "failed"`.
    public let expected: String
    private let accepts: @Sendable (JSONValue) -> Bool

    public init(expected: String, accepts: @escaping @Sendable (JSONValue) -> Bool) {
        self.expected = expected
        self.accepts = accepts
    }

    public func check(_ value: JSONValue) -> Bool { accepts(value) }

    /// One of these strings.
    public static func oneOf(_ choices: [String]) -> ObservationRule {
        ObservationRule(expected: choices.map { "\"\($0)\"" }.joined(separator: " | ")) {
            if case .string(let s) = $0 { return choices.contains(s) }
            return false
        }
    }

    public static let string = ObservationRule(expected: "a string") {
        if case .string = $0 { return true }
        return false
    }

    public static let bool = ObservationRule(expected: "true or false") {
        if case .bool = $0 { return true }
        return false
    }

    /// Any JSON number (integer or not).
    public static let number = ObservationRule(expected: "a number") {
        switch $0 {
        case .int, .double: return true
        default: return false
        }
    }

    public static let integer = ObservationRule(expected: "an integer") {
        if case .int = $0 { return true }
        return false
    }

    /// `{"width": number, "height": number}` (CGSize-like).
    public static let size = ObservationRule(expected: "{\"width\": number, \"height\": number}") {
        guard case .object(let members) = $0, members.count == 2 else { return false }
        let keys = Set(members.map(\.key))
        guard keys == ["width", "height"] else { return false }
        return members.allSatisfy { member in
            switch member.node.value {
            case .int, .double: return true
            default: return false
            }
        }
    }

    /// A value that may also be null (the property became unknown).
    public var orNull: ObservationRule {
        let inner = self
        return ObservationRule(expected: expected + " | null") { value in
            if case .null = value { return true }
            return inner.check(value)
        }
    }
}
