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
    /// For the docs and error messages, e.g. `"readyToPlay" | "failed"`.
    public let expected: String
    private let diagnoser: @Sendable (JSONValue) -> ObservationProblem?

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

    public func check(_ value: JSONValue) -> Bool {
        // Not `== nil`, which compares through Equatable: it runs for every observation read.
        if case .none = diagnoser(value) { return true }
        return false
    }

    /// Why `value` is not accepted; nil when it is.
    public func diagnose(_ value: JSONValue) -> ObservationProblem? { diagnoser(value) }

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

/// Why an observation value was rejected: where inside the value (empty for the value itself),
/// what was expected there and what was found.
public struct ObservationProblem: Sendable, Equatable {
    /// Below the observation's key, e.g. `.fromVariant.peakBitRate` or `[2].url`; empty when the
    /// value itself is wrong.
    public var path: String
    public var expected: String
    /// The offending value as a user reads it (`"abc"`, `12`, `an object`).
    public var found: String
    /// Where the offending nested value starts, when it is known (JSON input).
    public var location: SourceLocation?

    public init(path: String = "", expected: String, found: String, location: SourceLocation? = nil) {
        self.path = path
        self.expected = expected
        self.found = found
        self.location = location
    }

    public init(path: String = "", expected: String, found value: JSONValue, location: SourceLocation? = nil) {
        self.init(path: path, expected: expected, found: Self.describe(value), location: location)
    }

    public var message: String { "expected \(expected), found \(found)" }

    /// Scalars as written, containers by their type name.
    public static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "\"\(s)\""
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        default: return value.typeName
        }
    }
}

/// A problem with an `observe` object as a whole (a property that does not belong to the event
/// named by another key, a missing required key), found after each key passed its rule.
public struct ObservationSetProblem: Error, Sendable, Equatable {
    /// The key to blame (its value's location is used); nil blames the whole object.
    public var key: String?
    public var message: String

    public init(key: String?, message: String) {
        self.key = key
        self.message = message
    }
}
