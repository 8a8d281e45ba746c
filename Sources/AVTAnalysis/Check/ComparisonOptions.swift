import AVTJSON

/// How `check` and `diff` compare two outputs: every member of every record, exactly, with ids
/// normalised (each output's ids are numbered in order of appearance) and records aligned (an
/// inserted or dropped record is one difference, not a shift of all that follow). Only these
/// options loosen it.
public struct ComparisonOptions: Sendable, Equatable {
    /// Attributes (`position`) or members (`t`, `time`, `value`, `metricType`, any other)
    /// dropped from both sides before comparing.
    public var ignore: Set<String> = []
    /// Times may differ by this many milliseconds: `t`, the time-valued attributes
    /// (`timeSince*`, `accum*`, `deltaPlayTime`) and the values of the metrics in
    /// `RecordComparator.millisecondMetrics`. Nothing else.
    public var tolerance = 0
    /// How far metric values may move; the most specific one for a metric applies (a name over a
    /// kind), and metrics none selects compare exactly.
    public var valueTolerances: [ValueTolerance] = []
    /// Records with the same `t` compare as a multiset (their order does not matter).
    public var ignoreOrder = false

    /// The exact comparison.
    public init() {}

    /// The options as the command line gives them: `ignore` names as reports print them
    /// (`attributes.position` is the attribute `position`), `valueTolerances` as
    /// `--value-tolerance` specs (`1%`, `StartTime=50`, `gauge=0.5%`, `counter=1`); nil when a
    /// spec is not `[name|gauge|counter|ratio=]amount[%]` with an amount ≥ 0, or `tolerance` < 0.
    public init?(ignore: [String] = [], tolerance: Int = 0, valueTolerances: [String] = [], ignoreOrder: Bool = false) {
        let parsed = valueTolerances.compactMap(ValueTolerance.init)
        guard parsed.count == valueTolerances.count, tolerance >= 0 else { return nil }
        self.ignore = Set(ignore.map(Self.ignoredName))
        self.tolerance = tolerance
        self.valueTolerances = parsed
        self.ignoreOrder = ignoreOrder
    }

    /// An ignored name as the comparison knows it: `attributes.position`, as reports print it,
    /// is the attribute `position`.
    public static func ignoredName(_ name: String) -> String {
        name.hasPrefix("attributes.") ? String(name.dropFirst("attributes.".count)) : name
    }
}
