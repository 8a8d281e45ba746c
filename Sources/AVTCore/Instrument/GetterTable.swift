/// One tracker's getters in registration order (~15, all consulted on every event the tracker
/// emits, so a scanned array rather than a dictionary).
final class GetterTable {
    private typealias Entries = [(attribute: Attribute, getter: AttributeGetter)]
    private var entries: Entries = []

    /// Replaces the attribute's getter in place, or appends it.
    func set(_ attribute: Attribute, _ getter: AttributeGetter) {
        change { entries in
            if let index = entries.firstIndex(where: { $0.attribute == attribute }) {
                entries[index].getter = getter
            } else {
                entries.append((attribute, getter))
            }
        }
    }

    func remove(_ attribute: Attribute) {
        change { $0.removeAll { $0.attribute == attribute } }
    }

    func removeAll() {
        entries = []
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
        entries.first { $0.attribute == attribute }?.getter
    }

    /// Sets every attribute whose getter accepts the event and has a value, in registration order.
    func apply(to event: inout Event) {
        // The walk goes over a copy: a getter that changes this table while it runs (registers or
        // drops a getter) changes the table's own array, and the change counts from the next event.
        let entries = self.entries
        for index in entries.indices where entries[index].getter.accepts(event, entries[index].attribute) {
            if let value = entries[index].getter.value() { event.attributes.set(entries[index].attribute, value) }
        }
    }
}
