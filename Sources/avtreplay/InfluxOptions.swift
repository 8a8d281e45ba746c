import AVTCore
import AVTDelivery
import AVTOutput
import ArgumentParser

/// How records are written as InfluxDB line protocol (`--format influx`, `--to influxdb://`).
/// Optional so a run can tell "given" from "default" and warn about one that shapes no output.
struct InfluxOptions: ParsableArguments {
    @Option(
        name: .customLong("influx-gzip"),
        help: ArgumentHelp(
            "gzip InfluxDB request bodies: auto (default: not to a loopback host, where it only costs CPU), always or never.",
            valueName: "when"))
    var gzipOption: DeliveryPolicy.GzipPolicy?

    @Option(
        name: .customLong("influx-precision"),
        help: ArgumentHelp("Timestamp precision of --format influx: ns, us, ms (default) or s.", valueName: "unit"))
    var precisionOption: InfluxLineEncoder.Precision?

    @Flag(help: "--format influx exactly as upstream OpenAVT writes it: no tags, no integer suffix, no escaping, ns.")
    var influxCompat = false

    @Option(
        name: .customLong("influx-measurements"),
        help: ArgumentHelp(
            "InfluxDB measurements for events and metrics (default: OAVT_EVENTS,OAVT_METRICS).",
            valueName: "events,metrics"))
    var measurementsOption: String?

    @Option(
        name: .customLong("influx-tags"),
        help: ArgumentHelp(
            "Event attributes written as InfluxDB tags, comma-separated (default: action,tracker).",
            valueName: "attr,..."))
    var tagsOption: String?

    var gzip: DeliveryPolicy.GzipPolicy { gzipOption ?? .auto }
    var precision: InfluxLineEncoder.Precision { precisionOption ?? .ms }

    func validate() throws {
        if let measurementsOption, OutputEncoders.influxMeasurements(measurementsOption) == nil {
            throw ValidationError("--influx-measurements expects two names: events,metrics.")
        }
    }

    var encoder: InfluxLineEncoder {
        var encoder = InfluxLineEncoder()
        if let measurementsOption, let names = OutputEncoders.influxMeasurements(measurementsOption) {
            (encoder.eventsMeasurement, encoder.metricsMeasurement) = names
        }
        if let tagsOption { encoder.tags = OutputEncoders.influxTags(tagsOption) }
        encoder.precision = precision
        encoder.compat = influxCompat
        return encoder
    }

    /// The flags given, by name.
    var given: [String] {
        [
            ("--influx-gzip", gzipOption != nil), ("--influx-precision", precisionOption != nil),
            ("--influx-compat", influxCompat),
            ("--influx-measurements", measurementsOption != nil), ("--influx-tags", tagsOption != nil),
        ].filter(\.1).map(\.0)
    }
}
