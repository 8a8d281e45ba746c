import Foundation

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
/// This is the seam a shared per-destination window mechanism replaces: `contains` decides,
/// `reason` is what the dead-letter file and the summary say.
package struct PrometheusWindow: Sendable {
    /// Seconds before now; nil for no lower bound.
    package var past: Int?
    /// Seconds after now.
    package var future = 2 * 86_400

    package init(past: Int?) { self.past = past }

    /// Prometheus without an out-of-order window.
    package static let prometheusDefault = 3600

    /// Whether `ms` is inside the window around `now` (epoch ms).
    package func contains(_ ms: Int, now: Int) -> Bool {
        if let past, ms < now - past * 1000 { return false }
        return ms <= now + future * 1000
    }

    package var reason: String {
        let past = self.past.map { "more than \($0) s before sending or " } ?? ""
        return "outside the server's window (\(past)more than \(future) s ahead): "
            + "replay with --start-time now, widen --prometheus-window to the server's "
            + "out-of-order window or retention, or backfill with --format openmetrics and "
            + "promtool tsdb create-blocks-from openmetrics"
    }

    /// The wall clock in epoch milliseconds.
    static func now() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
