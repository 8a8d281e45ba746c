import AVTJSON

/// One player observation of an `observe` step: a property of the player (or a one-shot signal
/// such as `notification`) and its new value, with where it was written for error messages.
public struct Observation: Sendable, Equatable {
    /// The observed property (a key of the tracker's `observationRules`).
    public var key: String
    /// Its new value, as the timeline gives it.
    public var value: JSONValue

    /// `key` observed as `value`.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
