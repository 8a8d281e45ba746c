import Synchronization

/// Points whose names line protocol could not carry as they were, counted across sessions and
/// worker threads so a run warns once, with the count (see `InfluxLineWriter.name`).
package final class InfluxNameRewrites: Sendable {
    /// Points with a newline or CR in a name, or a backslash InfluxDB would read as an escape.
    private let replacedCount = Atomic<Int>(0)
    /// Points with a field (or tag) named `time`, which InfluxDB drops.
    private let renamedCount = Atomic<Int>(0)

    package init() {}

    package var replaced: Int { replacedCount.load(ordering: .relaxed) }
    package var renamed: Int { renamedCount.load(ordering: .relaxed) }

    func add(_ rewrite: InfluxLineWriter.Rewrite) {
        if rewrite.contains(.replaced) { replacedCount.add(1, ordering: .relaxed) }
        if rewrite.contains(.renamedTime) { renamedCount.add(1, ordering: .relaxed) }
    }

    /// The warnings for the run: one per kind of rewrite that happened.
    package var warnings: [String] {
        var warnings: [String] = []
        if replaced > 0 {
            warnings.append(
                "\(replaced) InfluxDB point\(replaced == 1 ? " has" : "s have") a name line protocol cannot carry "
                    + "as it is: a newline or CR was written as \\n or \\r, and a backslash at the end of a name "
                    + "(or, in a measurement or field key, before a character that is escaped) got a _ after it")
        }
        if renamed > 0 {
            warnings.append(
                "\(renamed) InfluxDB point\(renamed == 1 ? " has" : "s have") a field named time, which InfluxDB "
                    + "drops: it was written as time_")
        }
        return warnings
    }
}
