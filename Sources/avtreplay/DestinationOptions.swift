import ArgumentParser

/// `run --to`: where records go, repeatable; the library's `Destination` parses each value.
struct DestinationOptions: ParsableArguments {
    @Option(
        name: .customLong("to"),
        help: ArgumentHelp(
            "Where records go (repeatable): stdout (default), file:PATH, influxdb://HOST:PORT/DB[?rp=…] "
                + "(influxdb+https:// too; INFLUX_USERNAME/INFLUX_PASSWORD for authentication), "
                + "influxdb2://HOST:PORT?org=ORG&bucket=BUCKET (influxdb2+https:// too; INFLUX_TOKEN), "
                + "graphite://HOST[:PORT], graphite+udp://HOST[:PORT], newrelic://ACCOUNT_ID[?region=eu] "
                + "(NEW_RELIC_LICENSE_KEY), mediastream+http(s)://HOST/PATH (Mediastream collector events), "
                + "or prometheus://HOST:PORT[/PATH] (prometheus+https:// too; Prometheus remote write, also VictoriaMetrics).",
            valueName: "dest"))
    var destinations: [String] = []
}
