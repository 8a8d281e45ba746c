import AVTJSON

/// A problem with an `observe` object as a whole (a property that does not belong to the event
/// named by another key, a missing required key), found after each key passed its rule.
public struct ObservationSetProblem: Error, Sendable, Equatable {
    /// The key to blame (its value's location is used); nil blames the whole object.
    public var key: String?
    /// What is wrong, as the error message says it.
    public var message: String

    /// A problem with the step's observations; `key` names the one to blame, nil for the whole set.
    public init(key: String?, message: String) {
        self.key = key
        self.message = message
    }
}
