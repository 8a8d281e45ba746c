import Synchronization

/// Interns names as small integers, so attributes and actions compare and hash as integers on
/// the hot path (every event carries ~30 attributes) while their names stay available.
/// Append-only and shared by all replays of a process; the number of entries is the number of
/// distinct names ever seen, which is the vocabulary of the inputs, not their length.
final class NameTable: Sendable {
    private struct State {
        var ids: [String: Int32] = [:]
        var names: [String] = []
    }

    private let state: Mutex<State>

    /// A table whose first ids (0, 1, …) are `names`, in order.
    init(seeded names: [String] = []) {
        var state = State()
        for name in names {
            precondition(state.ids[name] == nil, "\(name) is seeded twice")
            state.ids[name] = Int32(state.names.count)
            state.names.append(name)
        }
        self.state = Mutex(state)
    }

    func id(for name: String) -> Int32 {
        state.withLock { state in
            if let id = state.ids[name] { return id }
            let id = Int32(state.names.count)
            state.names.append(name)
            state.ids[name] = id
            return id
        }
    }

    func name(of id: Int32) -> String {
        state.withLock { $0.names[Int(id)] }
    }

    /// The names of ids `from..<count`, in id order (for callers that cache names locally).
    func names(from start: Int) -> [String] {
        state.withLock { state in
            start < state.names.count ? Array(state.names[start...]) : []
        }
    }
}
