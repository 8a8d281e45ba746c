/// One `"key": value` pair of an object, in source order (duplicates are kept; decoders decide).
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var node: JSONNode

    public init(key: String, node: JSONNode) {
        self.key = key
        self.node = node
    }
}
