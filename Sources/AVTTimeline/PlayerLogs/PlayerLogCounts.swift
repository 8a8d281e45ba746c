/// What a player log said that its tracker's observations cannot express yet, counted by kind
/// (in first-seen order, so the summary is deterministic) and reported once at the end.
package struct PlayerLogCounts: Equatable {
    package private(set) var order: [String] = []
    package private(set) var counts: [String: Int] = [:]

    package init() {}

    package mutating func add(_ kind: String, _ n: Int = 1) {
        if counts[kind] == nil { order.append(kind) }
        counts[kind] = (counts[kind] ?? 0).addingClamped(n)
    }

    package subscript(_ kind: String) -> Int { counts[kind] ?? 0 }

    package var isEmpty: Bool { order.isEmpty }

    /// `droppedFrames 3, mediaItem 1`.
    package var text: String { order.map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ") }
}
