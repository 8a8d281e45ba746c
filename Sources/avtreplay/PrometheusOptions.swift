import AVTDelivery
import ArgumentParser

/// The window of timestamps a remote-write server stores (`--to prometheus://…`), in `run` and
/// `send` alike. Optional so a run can tell "given" from "default".
struct PrometheusOptions: ParsableArguments {
    @Option(
        name: .customLong("prometheus-window"),
        help: ArgumentHelp(
            "Seconds before now a remote-write server still stores: Prometheus' out-of-order window "
                + "(default: 3600, the hour Prometheus keeps without one), VictoriaMetrics' retention; "
                + "0 for no bound. Older samples go to the dead-letter file, not to the server.",
            valueName: "s"))
    var windowOption: Int?

    func validate() throws {
        if let windowOption, windowOption < 0 {
            throw ValidationError("--prometheus-window must be 0 or more seconds.")
        }
    }

    var window: PrometheusWindow {
        let past = windowOption ?? PrometheusWindow.prometheusDefault
        return PrometheusWindow(past: past == 0 ? nil : past)
    }

    var given: [String] { windowOption == nil ? [] : ["--prometheus-window"] }
}
