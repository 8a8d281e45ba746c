/// A JSON value. Numbers keep the distinction the text makes: a literal without fraction or
/// exponent that fits in `Int` is `.int`; every other number is `.double`. Telemetry depends on it
/// (an attribute of `1` and one of `1.0` are different values to a backend).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    /// The JSON type's name as a user reads it in an error message.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
