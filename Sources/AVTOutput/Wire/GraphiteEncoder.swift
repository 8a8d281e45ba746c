import AVTCore
import AVTJSON

/// Graphite's plaintext protocol: `PREFIX.<MetricName> <value> <epoch s>`.
/// Events are not sent (as upstream) unless `events` is on: then each counts as
/// `PREFIX.events.<Action> 1`. Path components are sanitised to `[A-Za-z0-9_-]` (anything else
/// becomes `_`), because carbon splits lines on white space and paths on dots.
///
/// Carbon keeps one value per path per retention step, so values are aggregated per `step`
/// seconds before they are written: counters (and event counts) are summed; gauges follow
/// `gauges` (the last value by default, as carbon itself would keep).
package struct GraphiteEncoder: Sendable {
    package enum GaugeAggregation: String, Sendable, CaseIterable {
        case last, sum, avg, min, max
    }

    package var prefix = "OAVT"
    package var events = false
    /// Seconds per aggregation bucket: the retention step of the carbon schema.
    package var step = 1
    package var gauges = GaugeAggregation.last

    package init() {}

    /// `PREFIX.<scope…>.<components…>`, each component sanitised. `scope` is what tells one
    /// run's or session's paths from another's (see `scope(of:)`).
    func path(_ components: [String], scope: [String] = []) -> String {
        (prefix.split(separator: ".").map(String.init) + scope + components).map(Self.sanitize).joined(
            separator: ".")
    }

    /// The path components of a session's records: the `--label` values in the order given,
    /// then the session's name. Carbon keeps one value per path and step, so sessions of one
    /// run (or runs under different labels) that share a path would overwrite each other.
    package static func scope(of records: RecordEncoder) -> [String] {
        records.labels.map(\.value) + (records.seriesSession.map { [$0] } ?? [])
    }

    package static func sanitize(_ component: String) -> String {
        let cleaned = String(
            component.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return Character(scalar)
                default: return "_"
                }
            })
        return cleaned.isEmpty ? "_" : cleaned
    }
}
