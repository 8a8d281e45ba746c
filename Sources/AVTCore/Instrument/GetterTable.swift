/// One tracker's getters in registration order (~15, all consulted on every event the tracker
/// emits, so a scanned array rather than a dictionary). A timeline can set any number of distinct
/// attributes, each a getter: past `indexedCount` getters, a dictionary finds an attribute's
/// getter, so registering n getters stays linear instead of scanning the array n times.
final class GetterTable {
    private typealias Entries = [(attribute: Attribute, getter: AttributeGetter, read: Read)]
    private var entries: Entries = []
    /// How the per-event walk reads an entry: plain bits decided at registration, so the walk
    /// calls no closure for a constant or a field, and copies (retains) no getter to find out.
    private enum Read {
        /// The getter's constant.
        case constant
        /// Field number n of `fieldReader`.
        case field(Int)
        /// Through the getter: its filter, then its value.
        case call
    }
    /// The reader of the first field getter registered (a tracker serves its own fields); the
    /// fields of another reader are read through their getter.
    private var fieldReader: (any AttributeFields)?
    /// Each attribute's position in `entries`; nil while the table is small enough to scan.
    private var positions: [Attribute: Int]?
    /// Getters of custom attributes, kept out of the per-event walk when events need only the
    /// built-in ones (`omitCustomAttributes`): still found by `getter(_:)`.
    private var aside: [Attribute: AttributeGetter] = [:]
    private var omitsCustom = false

    static let indexedCount = 32

    private func position(of attribute: Attribute) -> Int? {
        if let positions { return positions[attribute] }
        return entries.firstIndex { $0.attribute == attribute }
    }

    /// From now on, getters of custom attributes are not consulted for events (an analysis that
    /// reads built-in attributes only): a timeline that sets a new attribute on every step would
    /// otherwise make every event carry all of them, and the replay quadratic. Those already
    /// registered move aside.
    func omitCustomAttributes() {
        omitsCustom = true
        let custom = entries.filter { !$0.attribute.isBuiltin }
        guard !custom.isEmpty else { return }
        for entry in custom { aside[entry.attribute] = entry.getter }
        change { $0.removeAll { !$0.attribute.isBuiltin } }
        reindex()
    }

    /// Replaces the attribute's getter in place, or appends it.
    func set(_ attribute: Attribute, _ getter: AttributeGetter) {
        if omitsCustom, !attribute.isBuiltin {
            aside[attribute] = getter
            return
        }
        let read = read(of: getter)
        if let index = position(of: attribute) {
            change { $0[index] = (attribute, getter, read) }
            return
        }
        change { $0.append((attribute, getter, read)) }
        if positions != nil {
            positions?[attribute] = entries.count - 1
        } else if entries.count > Self.indexedCount {
            reindex()
        }
    }

    func remove(_ attribute: Attribute) {
        if omitsCustom, !attribute.isBuiltin {
            aside[attribute] = nil
            return
        }
        guard position(of: attribute) != nil else { return }
        change { $0.removeAll { $0.attribute == attribute } }
        if positions != nil { reindex() }
    }

    /// Positions rebuilt from `entries` (after a removal moved them), or none for a small table.
    private func reindex() {
        guard entries.count > Self.indexedCount else {
            positions = nil
            return
        }
        var rebuilt: [Attribute: Int] = [:]
        rebuilt.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() { rebuilt[entry.attribute] = index }
        positions = rebuilt
    }

    func removeAll() {
        entries = []
        positions = nil
        aside = [:]
        fieldReader = nil
    }

    private func read(of getter: AttributeGetter) -> Read {
        switch getter.source {
        case .closure: return .call
        case .constant: return .constant
        case .field(let reader, let field):
            if fieldReader == nil { fieldReader = reader }
            return fieldReader === reader ? .field(field) : .call
        }
    }

    /// Changes `entries` moved out of the table and back. Changed in place, the array would be
    /// under an access that may copy it (and release what it held), which makes the compiler
    /// check every access of `entries` at run time, the per-event walk's included. Moving is
    /// two plain stores and keeps the array uniquely referenced, so nothing is copied.
    private func change(_ body: (inout Entries) -> Void) {
        var moved: Entries = []
        swap(&moved, &entries)
        body(&moved)
        entries = moved
    }

    func getter(_ attribute: Attribute) -> AttributeGetter? {
        if omitsCustom, !attribute.isBuiltin { return aside[attribute] }
        return position(of: attribute).map { entries[$0].getter }
    }

    /// Sets every attribute whose getter accepts the event and has a value, in registration order.
    func apply(to event: inout Event) {
        // The walk goes over a copy: a getter that changes this table while it runs (registers or
        // drops a getter) changes the table's own array, and the change counts from the next event.
        let entries = self.entries
        let reader = fieldReader
        guard entries.count > Self.indexedCount else {
            for index in entries.indices {
                if let value = Self.value(of: entries, index, for: event, reader: reader) {
                    event.attributes.set(entries[index].attribute, value)
                }
            }
            return
        }
        // Many getters (a timeline that sets many attributes): their attributes differ from one
        // another, so each can only meet one the event had before the walk (the sender and the
        // time-since attributes). Only those are looked up; looking each getter's attribute up
        // in the whole map made every event cost the square of its attributes.
        let earlier = AttributeMap.Lookup(event.attributes)
        for index in entries.indices {
            if let value = Self.value(of: entries, index, for: event, reader: reader) {
                event.attributes.set(entries[index].attribute, value, among: earlier)
            }
        }
    }

    /// The value entry `index` gives the event: nil when its filter refuses the event or it has none.
    @inline(__always)
    private static func value(
        of entries: Entries, _ index: Int, for event: Event, reader: (any AttributeFields)?
    ) -> AttributeValue? {
        switch entries[index].read {
        case .field(let field):
            return reader?.attributeValue(field: field)
        case .constant:
            guard case .constant(let value) = entries[index].getter.source else { return nil }
            return value
        case .call:
            guard entries[index].getter.accepts(event, entries[index].attribute) else { return nil }
            return entries[index].getter.currentValue()
        }
    }
}
