import AVTCore
import AVTOutput
import ArgumentParser

/// How records are written for Graphite (`--format graphite`, `--to graphite://`). Optional so a
/// run can tell "given" from "default" and warn about one that shapes no output.
struct GraphiteOptions: ParsableArguments {
    @Option(
        name: .customLong("graphite-prefix"),
        help: ArgumentHelp("Graphite path prefix (default: OAVT).", valueName: "prefix"))
    var prefixOption: String?

    @Flag(help: "Also count events in Graphite, as PREFIX.events.<Action> 1.")
    var graphiteEvents = false

    @Option(
        name: .customLong("graphite-step"),
        help: ArgumentHelp(
            "Seconds per Graphite value (the carbon retention step): counters are summed per step, gauges per --graphite-aggregate (default: 1).",
            valueName: "s"))
    var stepOption: Int?

    @Option(
        name: .customLong("graphite-aggregate"),
        help: ArgumentHelp(
            "How gauges of one Graphite step combine: last (default), sum, avg, min or max.", valueName: "how"))
    var aggregateOption: GraphiteEncoder.GaugeAggregation?

    func validate() throws {
        if let stepOption, stepOption < 1 { throw ValidationError("--graphite-step must be at least 1 second.") }
    }

    var encoder: GraphiteEncoder {
        var encoder = GraphiteEncoder()
        if let prefixOption { encoder.prefix = prefixOption }
        encoder.events = graphiteEvents
        if let stepOption { encoder.step = stepOption }
        if let aggregateOption { encoder.gauges = aggregateOption }
        return encoder
    }

    /// The flags given, by name.
    var given: [String] {
        [
            ("--graphite-prefix", prefixOption != nil), ("--graphite-events", graphiteEvents),
            ("--graphite-step", stepOption != nil),
            ("--graphite-aggregate", aggregateOption != nil),
        ].filter(\.1).map(\.0)
    }
}
