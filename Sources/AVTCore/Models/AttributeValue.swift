/// The value of an attribute. Integers and doubles stay distinct because backends type them
/// differently (InfluxDB `42i` versus `42`); durations are always `.int` milliseconds.
public enum AttributeValue: Hashable, Sendable, CustomStringConvertible {
    /// An integer; every duration and time is an integer number of milliseconds.
    case int(Int)
    /// A floating-point number, such as `fps`.
    case double(Double)
    /// Text, such as an id, a name or a URL.
    case string(String)
    /// A flag, such as the hub's `in…Block` attributes.
    case bool(Bool)

    /// The integer, or nil when the value is not `.int` (a `.double` is not converted).
    public var intValue: Int? {
        if case .int(let v) = self { return v }
        return nil
    }

    /// The flag, or nil when the value is not `.bool`.
    public var boolValue: Bool? {
        if case .bool(let v) = self { return v }
        return nil
    }

    /// The text, or nil when the value is not `.string`.
    public var stringValue: String? {
        if case .string(let v) = self { return v }
        return nil
    }

    /// The value as plain text, with no type marker.
    public var description: String {
        switch self {
        case .int(let v): return String(v)
        case .double(let v): return String(v)
        case .string(let v): return v
        case .bool(let v): return String(v)
        }
    }
}

extension AttributeValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    /// An integer literal is an `.int`.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal is a `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal is a `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A boolean literal is a `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
