/// A parsed JSON value with the location where it starts, so decoders can point at the exact
/// spot of a mistake ("timeline.json:12:9: steps[3].t: expected an integer").
public struct JSONNode: Equatable, Sendable {
    /// The value.
    public var value: JSONValue
    /// Where the value begins in its input (line and column, from 1).
    public var location: SourceLocation

    /// A value read at `location`.
    public init(_ value: JSONValue, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}
