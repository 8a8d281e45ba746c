import AVTOutput

/// A `--to` value, parsed: the stream (standard output or a file) that carries the chosen
/// `--format`, or a server with its address, credentials and wire settings. `run` and `send`
/// both name destinations this way, so both accept and reject the same values with the same words.
package enum Destination: Sendable, CustomStringConvertible {
    case stdout
    case file(path: String)
    case influx(InfluxDestination)
    case graphite(GraphiteDestination)
    case newRelic(NewRelicDestination)
    case mediastream(MediastreamDestination)
    case prometheus(PrometheusDestination)

    /// What a destination is, before its parameters are read.
    package enum Kind: Sendable, Equatable, CaseIterable {
        case stdout, file, influx, graphite, newRelic, mediastream, prometheus

        /// The kind a `--to` value asks for, from its leading word; nil for none. A value that
        /// names a kind but is malformed (`graphite+tcp://`) is the kind's to reject, so its error
        /// says what that kind expects.
        package init?(of text: String) {
            if text == "stdout" {
                self = .stdout
            } else if text.hasPrefix("file:") {
                self = .file
            } else if text.hasPrefix("influxdb") {
                self = .influx
            } else if text.hasPrefix("newrelic") {
                self = .newRelic
            } else if text.hasPrefix("mediastream+") {
                self = .mediastream
            } else if text.hasPrefix("graphite") {
                self = .graphite
            } else if text.hasPrefix("prometheus") {
                self = .prometheus
            } else {
                return nil
            }
        }

        /// Standard output and files carry `--format`; the others are servers with their own wire format.
        package var isStream: Bool { self == .stdout || self == .file }
    }

    static let expected =
        "unknown destination: expected stdout, file:PATH, influxdb://HOST:PORT/DB, influxdb2://HOST:PORT?org=O&bucket=B, "
        + "graphite://HOST:PORT, newrelic://ACCOUNT_ID, mediastream+http://HOST/PATH or prometheus://HOST:PORT[/PATH]"

    /// Parses a `--to` value.
    package init(_ text: String, settings: DestinationSettings = DestinationSettings()) throws(OutputError) {
        guard let kind = Kind(of: text) else { throw OutputError(path: text, message: Self.expected) }
        try self.init(text, as: kind, settings: settings)
    }

    /// Parses `text` as a destination of `kind`, whatever it looks like (`send` knows the kind
    /// from the wire format of the lines it re-sends).
    package init(_ text: String, as kind: Kind, settings: DestinationSettings = DestinationSettings())
        throws(OutputError)
    {
        switch kind {
        case .stdout: self = .stdout
        case .file: self = .file(path: text.hasPrefix("file:") ? String(text.dropFirst("file:".count)) : text)
        case .influx:
            self = .influx(
                try InfluxDestination(text, precision: settings.precision, environment: settings.environment))
        case .graphite: self = .graphite(try GraphiteDestination(text))
        case .newRelic:
            self = .newRelic(
                try NewRelicDestination(text, endpoint: settings.newRelicEndpoint, environment: settings.environment))
        case .mediastream: self = .mediastream(try MediastreamDestination(text))
        case .prometheus: self = .prometheus(try PrometheusDestination(text, window: settings.prometheusWindow))
        }
    }

    package var kind: Kind {
        switch self {
        case .stdout: .stdout
        case .file: .file
        case .influx: .influx
        case .graphite: .graphite
        case .newRelic: .newRelic
        case .mediastream: .mediastream
        case .prometheus: .prometheus
        }
    }

    /// The path of a stream destination (`-` for standard output); nil for a server.
    package var streamPath: String? {
        switch self {
        case .stdout: "-"
        case .file(let path): path
        default: nil
        }
    }

    /// The value as given (`stdout`, `file:PATH`, the server's URL): the name in summaries and
    /// in the dead-letter file.
    package var description: String {
        switch self {
        case .stdout: "stdout"
        case .file(let path): "file:" + path
        case .influx(let server): server.description
        case .graphite(let server): server.description
        case .newRelic(let server): server.description
        case .mediastream(let server): server.description
        case .prometheus(let server): server.description
        }
    }

    /// The delivery to this destination's server; nil for a stream, which the run writes itself.
    package func delivery(policy: DeliveryPolicy, ledger: DeliveryLedger, graphiteRetention: Int) -> ServerDelivery? {
        switch self {
        case .stdout, .file: nil
        case .influx(let server): .influx(InfluxDelivery(destination: server, policy: policy, ledger: ledger))
        case .graphite(let server):
            .graphite(
                GraphiteDelivery(destination: server, policy: policy, ledger: ledger, retention: graphiteRetention))
        case .newRelic(let server): .newRelic(NewRelicDelivery(destination: server, policy: policy, ledger: ledger))
        case .mediastream(let server):
            .mediastream(MediastreamDelivery(destination: server, policy: policy, ledger: ledger))
        case .prometheus(let server):
            .prometheus(PrometheusDelivery(destination: server, policy: policy, ledger: ledger))
        }
    }
}
