import AVTDelivery
import ArgumentParser

/// The windows of timestamps the servers keep, where the user knows them better than a default:
/// for `run` and `send` alike, since `send` checks them again.
struct WindowOptions: ParsableArguments {
    @Option(
        name: .customLong("graphite-retention"),
        help: ArgumentHelp(
            "Seconds of history the carbon schema keeps; points older, or later than now, go to the dead-letter file instead (default: 86400).",
            valueName: "s"))
    var graphiteRetentionOption: Int?

    @Option(
        name: .customLong("influx-retention"),
        help: ArgumentHelp(
            "Duration the InfluxDB retention policy or bucket keeps (7d, 12h, 90m, 3600s or seconds); older points go to the dead-letter file instead (default: everything is kept).",
            valueName: "duration"))
    var influxRetentionOption: String?

    var graphiteRetention: Int { graphiteRetentionOption ?? 86_400 }

    /// Seconds, or nil for a policy that keeps everything.
    var influxRetention: Int? { influxRetentionOption.flatMap(Self.seconds) }

    func validate() throws {
        if let graphiteRetentionOption, graphiteRetentionOption < 1 {
            throw ValidationError("--graphite-retention must be at least 1 second.")
        }
        if let influxRetentionOption, Self.seconds(influxRetentionOption) == nil {
            throw ValidationError(
                "--influx-retention expects a duration such as 7d, 12h, 90m, 3600s or 3600; got '\(influxRetentionOption)'."
            )
        }
    }

    /// `7d`, `2w`, `12h`, `90m`, `30s` or plain seconds, as InfluxDB writes durations; at most 100 years.
    static func seconds(_ text: String) -> Int? {
        let units: [(String, Int)] = [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1), ("", 1)]
        for (unit, size) in units where text.hasSuffix(unit) {
            guard let n = Int(text.dropLast(unit.count)), n > 0, n <= 100 * 365 * 86_400 / size else { return nil }
            return n * size
        }
        return nil
    }

    /// The flags given, by name.
    var given: [String] {
        [
            ("--graphite-retention", graphiteRetentionOption != nil),
            ("--influx-retention", influxRetentionOption != nil),
        ]
        .filter(\.1).map(\.0)
    }
}
