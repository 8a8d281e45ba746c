/// A tracker's source of one attribute (position, bitrate, …), asked on every event that tracker
/// emits. The filter decides per event whether the getter is consulted at all.
public struct AttributeGetter {
    public typealias Filter = (_ event: Event, _ attribute: Attribute) -> Bool

    public let value: () -> AttributeValue?
    public let filter: Filter

    public init(filter: @escaping Filter = { _, _ in true }, value: @escaping () -> AttributeValue?) {
        self.value = value
        self.filter = filter
    }
}
