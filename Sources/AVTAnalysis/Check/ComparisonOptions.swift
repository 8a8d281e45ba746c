import AVTJSON

/// How `check` and `diff` compare two outputs.
package struct ComparisonOptions: Sendable, Equatable {
    /// Attributes dropped from both sides before comparing.
    package var ignore: Set<String> = []
    /// Times may differ by this many milliseconds: `t`, the time-valued attributes
    /// (`timeSince*`, `accum*`, `deltaPlayTime`) and the values of the metrics in
    /// `RecordComparator.millisecondMetrics`. Nothing else.
    package var tolerance = 0
    /// How far metric values may move; the most specific one for a metric applies (a name over a
    /// kind), and metrics none selects compare exactly.
    package var valueTolerances: [ValueTolerance] = []
    /// Records with the same `t` compare as a multiset (their order does not matter).
    package var ignoreOrder = false

    package init() {}
}
