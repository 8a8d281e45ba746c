import AVTTimeline

/// `--label NAME=VALUE` (repeatable) and `--no-session-label`: what tells one run's series from
/// another's on a server. The labels go on every Prometheus and VictoriaMetrics series, on every
/// InfluxDB point as tags, and into every Graphite path as components (their values, in the
/// order given). Two replays of one input at the same time under different labels are different
/// series, so neither overwrites the other.
package struct SeriesLabels: Sendable, Equatable {
    /// The labels in the order given; names are unique.
    package private(set) var pairs: [(name: String, value: String)] = []
    /// Whether a run of several sessions labels each series with its session's name.
    package var session = true

    /// Names the records' own labels and tags use: a label of the same name would make a
    /// series ambiguous, or overwrite one of them.
    package static let reserved: Set<String> = ["action", "tracker", "seq", "session", "le"]

    package init() {}

    package static func == (a: SeriesLabels, b: SeriesLabels) -> Bool {
        a.session == b.session && a.pairs.elementsEqual(b.pairs) { $0 == $1 }
    }

    /// Parses `NAME=VALUE`s; the message says which one is wrong and what was expected.
    package init(parsing texts: [String], session: Bool = true) throws(UsageError) {
        self.session = session
        for text in texts {
            guard let equals = text.firstIndex(of: "=") else {
                throw UsageError("--label \(text): expected NAME=VALUE, e.g. --label run=baseline")
            }
            let name = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            guard Self.isValidName(name) else {
                throw UsageError(
                    "--label \(text): the name \"\(name)\" is not a Prometheus label name "
                        + "([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)")
            }
            guard !Self.reserved.contains(name) else {
                throw UsageError(
                    "--label \(text): \(name) is one of avtreplay's own labels "
                        + "(\(Self.reserved.sorted().joined(separator: ", "))); choose another name")
            }
            guard !value.isEmpty else {
                // Prometheus treats an empty label as no label: the series would merge with others.
                throw UsageError("--label \(text): the value is empty; give NAME=VALUE with a value")
            }
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw UsageError("--label \(text): the value holds a control character")
            }
            guard !pairs.contains(where: { $0.name == name }) else {
                throw UsageError("--label \(text): \(name) is given twice")
            }
            pairs.append((name, value))
        }
    }

    /// The Prometheus label name grammar: `[a-zA-Z_][a-zA-Z0-9_]*`; names beginning with `__`
    /// are reserved for Prometheus' own use.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !name.hasPrefix("__") else { return false }
        func letter(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F }
        return letter(first) && name.utf8.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
