/// One tracker's getters in registration order (~15, all consulted on every event the tracker
/// emits, so a scanned array rather than a dictionary). A timeline can set any number of distinct
/// attributes, each a getter: past `indexedCount` getters, a dictionary finds an attribute's
/// getter, so registering n getters stays linear instead of scanning the array n times.
final class GetterTable {
    private typealias Entries = [(attribute: Attribute, getter: AttributeGetter)]
    private var entries: Entries = []
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
        if let index = position(of: attribute) {
            change { $0[index].getter = getter }
            return
        }
        change { $0.append((attribute, getter)) }
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
        guard entries.count > Self.indexedCount else {
            for index in entries.indices where entries[index].getter.accepts(event, entries[index].attribute) {
                if let value = entries[index].getter.value() { event.attributes.set(entries[index].attribute, value) }
            }
            return
        }
        // Many getters (a timeline that sets many attributes): their attributes differ from one
        // another, so each can only meet one the event had before the walk (the sender and the
        // time-since attributes). Only those are looked up; looking each getter's attribute up
        // in the whole map made every event cost the square of its attributes.
        let earlier = AttributeMap.Lookup(event.attributes)
        for index in entries.indices where entries[index].getter.accepts(event, entries[index].attribute) {
            if let value = entries[index].getter.value() {
                event.attributes.set(entries[index].attribute, value, among: earlier)
            }
        }
    }
}
