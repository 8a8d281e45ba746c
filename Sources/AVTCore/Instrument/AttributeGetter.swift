/// A tracker's source of one attribute (position, bitrate, …), asked on every event that tracker
/// emits. The filter decides per event whether the getter is consulted at all.
public struct AttributeGetter {
    /// Decides, for one event and attribute, whether the getter is consulted.
    public typealias Filter = (_ event: Event, _ attribute: Attribute) -> Bool

    /// Reads the attribute's current value; nil leaves the attribute off the event.
    public let value: () -> AttributeValue?
    /// nil when the getter has no filter: most have none, and skipping the call matters because
    /// every getter runs for every event.
    @usableFromInline let customFilter: Filter?

    /// The getter's filter; a getter made without one accepts every event.
    public var filter: Filter { customFilter ?? { _, _ in true } }

    /// A getter calling `value` for every event that `filter` accepts (every event when `filter` is nil).
    public init(filter: Filter? = nil, value: @escaping () -> AttributeValue?) {
        self.value = value
        self.customFilter = filter
    }

    /// A getter that reads `subject` (usually the tracker that registers it), handed to `value`
    /// on every call, so the closure needs no capture of `self` at all.
    ///
    /// The getter holds `subject` strongly. That makes no cycle for a tracker: the instrument owns
    /// its trackers and their getters, and a tracker refers to the instrument weakly (the
    /// deallocation test in AVTCoreTests checks both go away after a replay).
    @inlinable
    public init<Subject: AnyObject>(
        reading subject: Subject, filter: Filter? = nil, value: @escaping (Subject) -> AttributeValue?
    ) {
        self.init(filter: filter) { value(subject) }
    }

    /// Whether the getter is consulted for this event.
    @inlinable
    public func accepts(_ event: Event, _ attribute: Attribute) -> Bool {
        guard let customFilter else { return true }
        return customFilter(event, attribute)
    }
}
