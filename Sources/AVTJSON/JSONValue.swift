/// A JSON value. Numbers keep the distinction the text makes: a literal without fraction or
/// exponent that fits in `Int` is `.int`; every other number is `.double`. Telemetry depends on it
/// (an attribute of `1` and one of `1.0` are different values to a backend).
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or an exponent that fits in an `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string, unescaped.
    case string(String)
    /// An array, each element with its location.
    case array([JSONNode])
    /// An object's members, in input order.
    case object([JSONMember])

    /// 2^53 − 1: the largest integer every JSON reader keeps exactly (most read numbers as
    /// doubles). Every input integer avtreplay computes with stays within ± this, so sums and
    /// times neither overflow nor change on a round trip through other tools.
    public static let maxExactInteger = 9_007_199_254_740_991

    /// The first integer in `self` (nested members and elements included) past ±`maxExactInteger`:
    /// its path below `self` (`.a.b`, `[2]`) and its node, when it is nested. Nil when none.
    public func integerOutOfRange() -> (path: String, value: Int, node: JSONNode?)? {
        switch self {
        case .int(let i): return i.magnitude > UInt(Self.maxExactInteger) ? ("", i, nil) : nil
        case .array(let nodes):
            for (n, node) in nodes.enumerated() {
                if let (path, value, inner) = node.value.integerOutOfRange() {
                    return ("[\(n)]" + path, value, inner ?? node)
                }
            }
            return nil
        case .object(let members):
            for member in members {
                if let (path, value, inner) = member.node.value.integerOutOfRange() {
                    return ("." + member.key + path, value, inner ?? member.node)
                }
            }
            return nil
        default: return nil
        }
    }

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
