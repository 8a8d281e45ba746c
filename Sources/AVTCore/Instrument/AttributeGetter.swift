/// A tracker's source of one attribute (position, bitrate, …), asked on every event that tracker
/// emits. The filter decides per event whether the getter is consulted at all.
public struct AttributeGetter {
    /// Decides, for one event and attribute, whether the getter is consulted.
    public typealias Filter = (_ event: Event, _ attribute: Attribute) -> Bool

    /// Where the value comes from. Every getter runs for every event: a constant or a field of
    /// an `AttributeFields` reader is read without a closure call (see `GetterTable.apply`).
    @usableFromInline enum Source {
        case closure(() -> AttributeValue?)
        case constant(AttributeValue)
        case field(any AttributeFields, Int)
    }

    @usableFromInline let source: Source
    /// nil when the getter has no filter: most have none, and skipping the call matters because
    /// every getter runs for every event.
    @usableFromInline let customFilter: Filter?

    /// Reads the attribute's current value; nil leaves the attribute off the event.
    public var value: () -> AttributeValue? {
        switch source {
        case .closure(let read): return read
        case .constant(let value): return { value }
        case .field(let reader, let field): return { reader.attributeValue(field: field) }
        }
    }

    /// The getter's filter; a getter made without one accepts every event.
    public var filter: Filter { customFilter ?? { _, _ in true } }

    /// A getter calling `value` for every event that `filter` accepts (every event when `filter` is nil).
    public init(filter: Filter? = nil, value: @escaping () -> AttributeValue?) {
        self.source = .closure(value)
        self.customFilter = filter
    }

    /// A getter whose value never changes (a timeline's `set`, a tracker's name), for every event.
    public init(constant value: AttributeValue) {
        self.source = .constant(value)
        self.customFilter = nil
    }

    /// A getter of `reader`'s field number `field`, for every event: `reader` serves all its
    /// getters with one method, so reading one costs a call of that method, not a closure's.
    ///
    /// The getter holds `reader` strongly, as `init(reading:)` holds its subject.
    public init(field: Int, of reader: any AttributeFields) {
        self.source = .field(reader, field)
        self.customFilter = nil
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

    /// The value now, as `value()` gives it, without making a closure.
    @inlinable
    func currentValue() -> AttributeValue? {
        switch source {
        case .closure(let read): return read()
        case .constant(let value): return value
        case .field(let reader, let field): return reader.attributeValue(field: field)
        }
    }

    /// Whether the getter is consulted for this event.
    @inlinable
    public func accepts(_ event: Event, _ attribute: Attribute) -> Bool {
        guard let customFilter else { return true }
        return customFilter(event, attribute)
    }
}
