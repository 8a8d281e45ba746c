import AVTJSON

/// One player observation of an `observe` step: a property of the player (or a one-shot signal
/// such as `notification`) and its new value, with where it was written for error messages.
public struct Observation: Sendable, Equatable {
    /// The observed property (a key of the tracker's `observationRules`).
    public var key: String {
        didSet { name = ObservationName(key) }
    }
    /// `key` decoded once, for the consumers that switch over it on every observation.
    public private(set) var name: ObservationName
    /// Its new value, as the timeline gives it.
    public var value: JSONValue

    /// `key` observed as `value`.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.name = ObservationName(key)
        self.value = value
    }

    /// The key `name` stands for observed as `value`, without decoding the key: for readers
    /// that make observations of known keys by the million. `name` is a named case, not
    /// `other`, which stands for no one key.
    public init(_ name: ObservationName, _ value: JSONValue) {
        precondition(name != .other, "an observation made by name needs a named key")
        self.key = name.key
        self.name = name
        self.value = value
    }
}
