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
