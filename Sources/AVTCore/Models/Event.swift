/// One thing that happened, on its way from a tracker to a backend. The action is fixed at
/// creation; attributes are added by the instrument, the tracker and the hub in that order.
public struct Event: Sendable {
    /// What happened; fixed when the event is created.
    public let action: Action
    /// Virtual milliseconds since the replay's t=0 when the event was created.
    public let timestamp: Int
    /// The id of the tracker that emitted it (metadata for backends, not an attribute).
    public let trackerId: Int?
    /// The event's attributes, as the instrument, the tracker and the hub have set them so far.
    public var attributes: AttributeMap

    /// An event of `action` at `timestamp`; in a replay the instrument creates every event, and
    /// trackers and hubs only edit them.
    public init(action: Action, timestamp: Int, trackerId: Int? = nil, attributes: AttributeMap = AttributeMap()) {
        self.action = action
        self.timestamp = timestamp
        self.trackerId = trackerId
        self.attributes = attributes
    }

    /// The value of an attribute, or nil when the event does not carry it; setting nil removes it.
    public subscript(attribute: Attribute) -> AttributeValue? {
        get { attributes[attribute] }
        set { attributes[attribute] = newValue }
    }

    /// Removes an attribute; returns whether there was one.
    @discardableResult
    public mutating func removeAttribute(_ attribute: Attribute) -> Bool {
        attributes.removeValue(forKey: attribute) != nil
    }
}
