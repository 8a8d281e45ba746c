/// One tracker's getters in registration order (~15, all consulted on every event the tracker
/// emits, so a scanned array rather than a dictionary).
final class GetterTable {
    private var entries: [(attribute: Attribute, getter: AttributeGetter)] = []

    /// Replaces the attribute's getter in place, or appends it.
    func set(_ attribute: Attribute, _ getter: AttributeGetter) {
        if let index = entries.firstIndex(where: { $0.attribute == attribute }) {
            entries[index].getter = getter
        } else {
            entries.append((attribute, getter))
        }
    }

    func remove(_ attribute: Attribute) {
        entries.removeAll { $0.attribute == attribute }
    }

    func removeAll() {
        entries.removeAll()
    }

    func getter(_ attribute: Attribute) -> AttributeGetter? {
        entries.first { $0.attribute == attribute }?.getter
    }

    /// Sets every attribute whose getter accepts the event and has a value, in registration order.
    func apply(to event: inout Event) {
        // The walk goes over a copy: a getter that changes this table while it runs (registers or
        // drops a getter) changes the table's own array, and the change counts from the next event.
        let entries = self.entries
        for (attribute, getter) in entries where getter.accepts(event, attribute) {
            if let value = getter.value() { event.attributes.set(attribute, value) }
        }
    }
}
