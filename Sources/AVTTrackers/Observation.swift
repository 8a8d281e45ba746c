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
