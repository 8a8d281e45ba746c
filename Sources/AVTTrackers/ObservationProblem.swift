import AVTFormats
import AVTJSON

/// Why an observation value was rejected: where inside the value (empty for the value itself),
/// what was expected there and what was found.
public struct ObservationProblem: Sendable, Equatable {
    /// Below the observation's key, e.g. `.fromVariant.peakBitRate` or `[2].url`; empty when the
    /// value itself is wrong.
    public var path: String
    /// What the rule accepts, e.g. `"readyToPlay" | "failed"`.
    public var expected: String
    /// The offending value as a user reads it (`"abc"`, `12`, `an object`).
    public var found: String
    /// Where the offending nested value starts, when it is known (JSON input).
    public var location: SourceLocation?

    /// `found` (already described) where `expected` was due, at `path` inside the value.
    public init(path: String = "", expected: String, found: String, location: SourceLocation? = nil) {
        self.path = path
        self.expected = expected
        self.found = found
        self.location = location
    }

    /// `value` where `expected` was due, at `path` inside the value.
    public init(path: String = "", expected: String, found value: JSONValue, location: SourceLocation? = nil) {
        self.init(path: path, expected: expected, found: Self.describe(value), location: location)
    }

    /// `expected …, found …`, as error messages say it.
    public var message: String { "expected \(expected), found \(found)" }

    /// Scalars as written, containers by their type name.
    public static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return QuotedInput.quoted(s)
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        default: return value.typeName
        }
    }
}
