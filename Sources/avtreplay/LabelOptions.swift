import AVTOutput
import ArgumentParser

/// `--label` and `--no-session-label`: the labels that tell one run's series from another's on
/// Prometheus, VictoriaMetrics, InfluxDB and Graphite (see `SeriesLabels`).
struct LabelOptions: ParsableArguments {
    @Option(
        name: .customLong("label"),
        help: ArgumentHelp(
            "Add NAME=VALUE to every series and point a server keeps: a Prometheus/VictoriaMetrics label, an "
                + "InfluxDB tag, a Graphite path component (the value). Repeatable; NAME as Prometheus label names.",
            valueName: "name=value"))
    var labels: [String] = []

    @Flag(
        help: ArgumentHelp(
            "With several sessions, leave out the session label, tag and Graphite path component (the path "
                + "relative to the folder given); sessions then share series."))
    var noSessionLabel = false

    func validate() throws {
        do {
            _ = try SeriesLabels(parsing: labels)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The labels given (checked by `validate`).
    var seriesLabels: SeriesLabels {
        (try? SeriesLabels(parsing: labels, session: !noSessionLabel)) ?? SeriesLabels()
    }

    /// The flags given, by name.
    var given: [String] {
        [("--label", !labels.isEmpty), ("--no-session-label", noSessionLabel)].filter(\.1).map(\.0)
    }
}
