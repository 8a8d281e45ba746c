/// One tracker's getters in registration order (~15, all consulted on every event the tracker
/// emits, so a scanned array rather than a dictionary).
///
/// Each getter sits in a box the table owns, and the per-event walk reads the boxes unretained:
/// walking strong references retained and released every getter's closure on every event, a
/// tenth of building one. The strong array keeps each box alive as long as its entry stands.
final class GetterTable {
    final class Box {
        let getter: AttributeGetter
        init(_ getter: AttributeGetter) { self.getter = getter }
    }

    // Single-threaded, never re-entered: see `Instrument`.
    @exclusivity(unchecked) private var boxes: [Box] = []
    /// `boxes`, unretained, with their attributes: the same order and count.
    @exclusivity(unchecked) private var entries: [(attribute: Attribute, box: Unmanaged<Box>)] = []

    /// Replaces the attribute's getter in place, or appends it.
    func set(_ attribute: Attribute, _ getter: AttributeGetter) {
        let box = Box(getter)
        if let index = entries.firstIndex(where: { $0.attribute == attribute }) {
            entries[index].box = .passUnretained(box)
            boxes[index] = box
        } else {
            entries.append((attribute, .passUnretained(box)))
            boxes.append(box)
        }
    }

    func remove(_ attribute: Attribute) {
        guard let index = entries.firstIndex(where: { $0.attribute == attribute }) else { return }
        entries.remove(at: index)
        boxes.remove(at: index)
    }

    func removeAll() {
        entries.removeAll()
        boxes.removeAll()
    }

    func getter(_ attribute: Attribute) -> AttributeGetter? {
        guard let index = entries.firstIndex(where: { $0.attribute == attribute }) else { return nil }
        return boxes[index].getter
    }

    /// Sets every attribute whose getter accepts the event and has a value, in registration order.
    func apply(to event: inout Event) {
        // Walks snapshots (one retain each, not one per getter): a getter that changes this
        // table while it runs changes copies, the change counts from the next event (as when
        // the walk went over a copied array), and every box of the walk stays alive to its end.
        let entries = self.entries
        let boxes = self.boxes
        withExtendedLifetime(boxes) {
            entries.withUnsafeBufferPointer { entries in
                for entry in entries {
                    let value = entry.box._withUnsafeGuaranteedRef { box -> AttributeValue? in
                        box.getter.accepts(event, entry.attribute) ? box.getter.value() : nil
                    }
                    if let value { event.attributes.set(entry.attribute, value) }
                }
            }
        }
    }
}
