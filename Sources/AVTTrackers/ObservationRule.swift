import AVTJSON

/// What an observation key accepts, checked when the timeline is read so a replay never starts
/// on a value a tracker would have to guess about.
public struct ObservationRule: Sendable {
    /// For the docs and error messages, e.g. `"readyToPlay" | "failed"`.
    public let expected: String
    private let diagnoser: @Sendable (JSONValue) -> ObservationProblem?

    /// A rule accepting the values `accepts` approves; `expected` describes them.
    public init(expected: String, accepts: @escaping @Sendable (JSONValue) -> Bool) {
        self.expected = expected
        self.diagnoser = { accepts($0) ? nil : ObservationProblem(expected: expected, found: $0) }
    }

    /// A rule for nested values (objects, arrays) that says *where* inside the value it went
    /// wrong, so an error can name e.g. `observe.fromVariant.peakBitRate`.
    public init(expected: String, diagnose: @escaping @Sendable (JSONValue) -> ObservationProblem?) {
        self.expected = expected
        self.diagnoser = diagnose
    }

    /// Whether `value` is accepted (without the 2^53 check `diagnose` adds).
    public func check(_ value: JSONValue) -> Bool {
        // Not `== nil`, which compares through Equatable: it runs for every observation read.
        if case .none = diagnoser(value) { return true }
        return false
    }

    /// Why `value` is not accepted; nil when it is.
    /// An integer past 2^53 − 1 anywhere in the value is refused whatever the rule: a tracker
    /// would compute with it (a bitrate of 2^63 − 1 averages to nonsense, or overflows a sum).
    public func diagnose(_ value: JSONValue) -> ObservationProblem? {
        if let (path, number, node) = value.integerOutOfRange() {
            return ObservationProblem(
                path: path, expected: "an integer of at most 2^53 − 1 in magnitude", found: String(number),
                location: node?.location)
        }
        return diagnoser(value)
    }

    /// One of these strings.
    public static func oneOf(_ choices: [String]) -> ObservationRule {
        ObservationRule(expected: choices.map { "\"\($0)\"" }.joined(separator: " | ")) {
            if case .string(let s) = $0 { return choices.contains(s) }
            return false
        }
    }

    /// Any string.
    public static let string = ObservationRule(expected: "a string") {
        if case .string = $0 { return true }
        return false
    }

    /// `true` or `false`.
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

    /// A number without a fraction.
    public static let integer = ObservationRule(expected: "an integer") {
        if case .int = $0 { return true }
        return false
    }

    /// `{"width": number, "height": number}` (CGSize-like).
    public static let size = ObservationRule(expected: "{\"width\": number, \"height\": number}") {
        guard case .object(let members) = $0, members.count == 2 else { return false }
        // Both keys, in either order (no sets: this runs for every presentationSize of a replay).
        let (a, b) = (members[0].key, members[1].key)
        guard (a == "width" && b == "height") || (a == "height" && b == "width") else { return false }
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
