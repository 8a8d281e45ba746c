import AVTTimeline

/// The timelines and golden files reached outside a listing's own pairing (file arguments and
/// symlinks), by real path: few, so a suite of any size can still tell the same file reached
/// twice, or two timelines writing one golden file. A folder's plain files are not kept here.
struct GoldenClaims {
    private var timelines: Set<String> = []
    /// Golden file → the timeline that claimed it.
    private var goldens: [String: String] = [:]

    var hasAnyGolden: Bool { !goldens.isEmpty }

    func hasTimeline(_ real: String) -> Bool { !timelines.isEmpty && timelines.contains(real) }

    mutating func addTimeline(_ real: String) { timelines.insert(real) }

    func hasGolden(_ real: String) -> Bool { !goldens.isEmpty && goldens[real] != nil }

    /// Two timelines with one golden file (`s.json` and `s.csv`) would overwrite each other's
    /// expected output; that is refused rather than resolved by a naming rule nobody remembers.
    mutating func claim(_ real: String, by timeline: String, shown: String) throws(TimelineError) {
        try checkFree(real, for: timeline, shown: shown)
        goldens[real] = timeline
    }

    func checkFree(_ real: String, for timeline: String, shown: String) throws(TimelineError) {
        if let other = goldens[real], other != timeline {
            throw TimelineError(
                file: shown, message: "\(other) and \(timeline) would share this expected output; rename one of them")
        }
    }
}
