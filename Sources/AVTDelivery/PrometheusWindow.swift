/// The timestamps a remote-write server stores, as a range around the present. Samples outside
/// it are kept out of the request and go to the dead-letter file with one reason, so the summary
/// says it once per destination rather than once per batch.
///
/// - Prometheus refuses, with a 400 for the whole request, a sample older than its head allows:
///   one hour before the newest sample it holds (a live server's newest is about now), or its
///   `out_of_order_time_window` when that is longer. `past` is that bound.
/// - VictoriaMetrics drops, without an error, samples older than its `-retentionPeriod` (one
///   month by default) and more than two days ahead.
/// - Prometheus takes a sample from the future, but it moves its head forward, so that later
///   samples of the present are refused: two days ahead is refused here for both.
///
/// `deliveryWindow` states it for the check every windowed destination shares.
package struct PrometheusWindow: Sendable {
    /// Seconds before now; nil for no lower bound.
    package var past: Int?
    /// Seconds after now.
    package var future = 2 * 86_400

    package init(past: Int?) { self.past = past }

    /// Prometheus without an out-of-order window.
    package static let prometheusDefault = 3600

    /// The same window for the shared check (`DeliveryWindowFilter`), which dead-letters what is
    /// outside with one reason and says it once per destination.
    package var deliveryWindow: DeliveryWindow {
        var window = DeliveryWindow(
            past: past.map { $0 * 1000 }, ahead: future * 1000, keeper: "the remote-write server",
            fix: "replay with --end-time now, widen --prometheus-window to the server's out-of-order window or "
                + "retention, or backfill with --format openmetrics and promtool tsdb create-blocks-from openmetrics")
        // The head refuses samples older than its lower bound, not one exactly at it.
        window.keepsPastBound = true
        window.noun = "sample"
        return window
    }
}
