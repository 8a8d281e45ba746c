import AVTOutput

/// What a server destination needs besides its URL: the flags and environment that complete it.
package struct DestinationSettings: Sendable {
    /// The timestamp unit InfluxDB is told the lines use (`--influx-precision`).
    package var precision: InfluxLineEncoder.Precision
    /// `--newrelic-endpoint`: another host for both New Relic APIs.
    package var newRelicEndpoint: String?
    /// Where credentials come from (INFLUX_TOKEN, NEW_RELIC_LICENSE_KEY, …); passed in so tests
    /// need not touch the process environment.
    package var environment: [String: String]
    /// `--prometheus-window`: the timestamps a remote-write server stores.
    package var prometheusWindow = PrometheusWindow(past: PrometheusWindow.prometheusDefault)

    package init(
        precision: InfluxLineEncoder.Precision = .ms, newRelicEndpoint: String? = nil,
        environment: [String: String] = [:]
    ) {
        self.precision = precision
        self.newRelicEndpoint = newRelicEndpoint
        self.environment = environment
    }
}
