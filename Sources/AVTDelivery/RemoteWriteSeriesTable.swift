import AVTOutput

/// The series of a session's samples as remote write sends them, worked out once per series
/// instead of once per sample: its labels read back from the text `--format openmetrics` prints
/// (so they are exactly what the printed samples say), sorted as the protocol asks, and already
/// encoded as the protobuf `Label` fields of a `TimeSeries`. Series with the same labels share a
/// group: a request has one `TimeSeries` per group.
///
/// Appended to by the replay's thread; a batch carries a copy (copy-on-write: a new series
/// after a batch was shipped copies the table once).
struct RemoteWriteSeriesTable: Sendable {
    struct Group: Sendable {
        /// `__name__` included, sorted by name.
        let labels: [(name: String, value: String)]
        /// The labels as `TimeSeries` field 1, one `Label` each, in order.
        let encoded: [UInt8]
    }

    /// By series number (`PrometheusSample.series`): its text, `name{label="value",…}`.
    private(set) var texts: [String] = []
    /// By series number: its group; -1 for a text that is not a sample's series (`unreadable`).
    private(set) var groupOf: [Int32] = []
    private(set) var groups: [Group] = []
    /// By group: its place among all groups in label order (`precedes`), so that a batch sorts
    /// its series by comparing integers; kept by `rank()`.
    private(set) var ranks: [Int32] = []
    /// A group's number by its encoded labels: labels are compared as bytes, as the server does.
    private var groupNumbers: [[UInt8]: Int32] = [:]

    var count: Int { texts.count }

    /// A writer's series, by its text; numbered in order.
    /// `rank()` before it is encoded.
    mutating func add(text: String) {
        texts.append(text)
        // Read back as the line of one of its samples would be: the value and time do not
        // change how the labels read.
        guard let line = PrometheusSampleLine(text + " 0 0.000") else {
            groupOf.append(-1)
            return
        }
        groupOf.append(group(line.labels))
    }

    /// A series read from a line (`avtreplay send`); its text is the line's, kept by the caller.
    mutating func add(labels: [(name: String, value: String)]) {
        texts.append("")
        groupOf.append(group(labels))
    }

    private mutating func group(_ labels: [(name: String, value: String)]) -> Int32 {
        // Lines come with their labels sorted but for `__name__` first: sorted only if not.
        let inOrder = zip(labels, labels.dropFirst()).allSatisfy {
            $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
        }
        let labels = inOrder ? labels : labels.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        var encoded: [UInt8] = []
        for label in labels {
            var message: [UInt8] = []
            Self.field(1, bytes: Array(label.name.utf8), to: &message)
            Self.field(2, bytes: Array(label.value.utf8), to: &message)
            Self.field(1, bytes: message, to: &encoded)
        }
        if let known = groupNumbers[encoded] { return known }
        let number = Int32(groups.count)
        groups.append(Group(labels: labels, encoded: encoded))
        groupNumbers[encoded] = number
        return number
    }

    /// Ranks the groups in label order; after adding series, before a batch is encoded.
    mutating func rank() {
        guard ranks.count != groups.count else { return }
        let order = groups.indices.sorted { precedes(Int32($0), Int32($1)) }
        ranks = [Int32](repeating: 0, count: groups.count)
        for (place, group) in order.enumerated() { ranks[group] = Int32(place) }
    }

    /// Whether group `a`'s labels come before `b`'s: label by label (name, then value), in
    /// byte order, a shorter set first when it is the other's start.
    func precedes(_ a: Int32, _ b: Int32) -> Bool {
        let (x, y) = (groups[Int(a)].labels, groups[Int(b)].labels)
        for (p, q) in zip(x, y) {
            if !p.name.utf8.elementsEqual(q.name.utf8) { return p.name.utf8.lexicographicallyPrecedes(q.name.utf8) }
            if !p.value.utf8.elementsEqual(q.value.utf8) {
                return p.value.utf8.lexicographicallyPrecedes(q.value.utf8)
            }
        }
        return x.count < y.count
    }

    /// A length-delimited field (wire type 2).
    private static func field(_ number: UInt8, bytes: [UInt8], to out: inout [UInt8]) {
        out.append(number << 3 | 2)
        Varint.append(UInt64(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }
}
