/// One `"key": value` pair of an object, in source order (duplicates are kept; decoders decide).
public struct JSONMember: Equatable, Sendable {
    /// The member's name.
    public var key: String
    /// The member's value, with where it was read.
    public var node: JSONNode

    /// A member named `key`.
    public init(key: String, node: JSONNode) {
        self.key = key
        self.node = node
    }
}
