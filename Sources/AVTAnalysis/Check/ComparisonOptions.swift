import AVTJSON

/// How `check` and `diff` compare two outputs.
package struct ComparisonOptions: Sendable, Equatable {
    /// Attributes dropped from both sides before comparing.
    package var ignore: Set<String> = []
    /// Time-valued attributes (`timeSince*`, `accum*`, `deltaPlayTime`), metric values and `t`
    /// may differ by this many milliseconds.
    package var tolerance = 0
    /// Records with the same `t` compare as a multiset (their order does not matter).
    package var ignoreOrder = false

    package init() {}
}
