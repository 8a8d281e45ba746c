import AVTTimeline

/// What a check works through: each timeline with its golden file (`NAME.expected.jsonl`
/// beside it, or the one `expect` names), the timelines that have none and the golden files no
/// timeline claims. `GoldenChecker.plan` makes it; two timelines sharing one golden file are
/// refused before anything runs. A plan holds its arguments, not its files: `timelines` and
/// `files` walk the directories again.
public struct GoldenPlan: Sendable {
    /// The suite the checker runs, walked again as it runs.
    package let suite: GoldenSuite

    package init(_ suite: GoldenSuite) { self.suite = suite }

    /// The timelines to replay, in order (arguments as given, directories sorted by path).
    public var timelines: [String] {
        suite.items.compactMap {
            switch $0 {
            case .timeline(let path, _), .skipped(let path, _): path
            case .orphaned: nil
            }
        }
    }

    /// Every file the check reads: timelines and golden files.
    public var files: [String] { suite.items.flatMap(\.paths) }

    /// How many results a check of this plan gives.
    public var count: Int { suite.count }
}
