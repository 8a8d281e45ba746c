import AVTOutput

/// Options that only shape one kind of output would otherwise do nothing, silently, when that
/// output is not written: each such option given is named in a warning (not an error: the
/// replay itself is what was asked for).
package enum UnusedOptions {
    /// Options of one output, and whether a run writes that output.
    private struct Rule: Sendable {
        var options: [String]
        var used: @Sendable (_ stream: OutputFormat?, _ servers: Set<Destination.Kind>) -> Bool
        var output: String
    }

    private static let rules: [Rule] = [
        Rule(
            options: ["--mediastream-content-id", "--mediastream-unique-id"],
            used: { stream, servers in servers.contains(.mediastream) || stream == .mediastream },
            output:
                "as Mediastream events (--format mediastream to stdout or a file, or --to mediastream+http(s)://HOST/PATH)"
        ),
        Rule(
            options: ["--influx-precision", "--influx-compat", "--influx-measurements", "--influx-tags"],
            used: { stream, servers in servers.contains(.influx) || stream == .influx },
            output: "as InfluxDB line protocol (--format influx, or --to influxdb://…)"),
        Rule(
            options: ["--influx-gzip", "--influx-retention"], used: { $1.contains(.influx) },
            output: "to an InfluxDB server (--to influxdb://…)"),
        Rule(
            options: ["--graphite-prefix", "--graphite-events", "--graphite-step", "--graphite-aggregate"],
            used: { stream, servers in servers.contains(.graphite) || stream == .graphite },
            output: "for Graphite (--format graphite, or --to graphite://…)"),
        Rule(
            options: ["--graphite-retention"], used: { $1.contains(.graphite) },
            output: "to a Graphite server (--to graphite://…)"),
        Rule(
            options: ["--newrelic-endpoint"], used: { $1.contains(.newRelic) },
            output: "to New Relic (--to newrelic://…)"),
        Rule(
            options: ["--label", "--no-session-label"],
            used: { stream, servers in
                !servers.isDisjoint(with: [.influx, .graphite, .prometheus])
                    || [.influx, .graphite, .openmetrics].contains(stream)
            },
            output:
                "as series (--format influx, graphite or openmetrics, or --to influxdb://…, graphite://… or prometheus://…)"
        ),
        Rule(
            options: ["--prometheus-window"], used: { $1.contains(.prometheus) },
            output: "to a remote-write server (--to prometheus://…)"),
    ]

    /// The warnings for the options `given` (by flag name), when the run writes `stream` (nil
    /// for none) and delivers to servers of `servers`' kinds.
    package static func warnings(given: Set<String>, stream: OutputFormat?, servers: Set<Destination.Kind>) -> [String]
    {
        rules.compactMap { rule in
            let named = rule.options.filter(given.contains)
            guard !rule.used(stream, servers), !named.isEmpty else { return nil }
            let names = named.count == 1 ? named[0] : named.dropLast().joined(separator: ", ") + " and " + named.last!
            return "\(names) ignored: nothing is written \(rule.output)"
        }
    }
}
