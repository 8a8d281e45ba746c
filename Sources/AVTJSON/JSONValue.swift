/// A position in a text source: 1-based line and 1-based column counted in UTF-8 bytes.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A parsed JSON value with the location where it starts, so decoders can point at the exact
/// spot of a mistake ("timeline.json:12:9: steps[3].t: expected an integer").
public struct JSONNode: Equatable, Sendable {
    public var value: JSONValue
    public var location: SourceLocation

    public init(_ value: JSONValue, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// One `"key": value` pair of an object, in source order (duplicates are kept; decoders decide).
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var node: JSONNode

    public init(key: String, node: JSONNode) {
        self.key = key
        self.node = node
    }
}

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

/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
