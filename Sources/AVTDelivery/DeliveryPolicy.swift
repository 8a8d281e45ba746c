import AVTCore
import AVTJSON
import AVTOutput
import AVTReplay
import AVTTimeline
import Foundation

/// How hard delivery tries before a line goes to the dead-letter file.
package struct DeliveryPolicy: Sendable {
    /// Lines per HTTP request.
    package var batchLines = 5000
    /// Attempts per batch on connection errors, timeouts, 429 and 5xx.
    package var attempts = 5
    /// First retry delay in ms; doubled per attempt, with ±50% jitter, capped at `maximumDelay`.
    package var baseDelay = 250
    package var maximumDelay = 10_000
    /// Seconds per request.
    package var timeout = 10.0
    /// Once set (Ctrl-C), a failed attempt is not retried: the lines go to the dead-letter file.
    package var stop: StopRequest?
    /// Whether InfluxDB bodies are gzipped.
    package var gzip = GzipPolicy.auto
    /// `--influx-retention`: seconds the InfluxDB retention policy or bucket keeps; nil for the
    /// default policy, which keeps everything.
    package var influxRetention: Int?

    package init() {}

    /// Waits between attempts on the replay's own thread: delivery is synchronous, so the
    /// replay waits with it.
    static func sleep(milliseconds: Int) { Thread.sleep(forTimeInterval: Double(milliseconds) / 1000) }

    /// gzip saves bandwidth on a network and costs CPU on both ends. Measured on loopback
    /// against InfluxDB 1.6 (docs/performance.md): a fifth of avtreplay's CPU on that path
    /// and about 15% of the server's, for bytes that never leave the machine.
    package enum GzipPolicy: String, Sendable, CaseIterable {
        /// gzip unless the server's host is a loopback address (127.0.0.0/8, ::1, localhost).
        case auto
        case always
        case never

        func compresses(host: String) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto: return !InfluxDestination.isLoopback(host)
            }
        }
    }

    /// Runs `attempt` until it settles the batch (returns nil) or the attempts run out; then
    /// returns the last reason. Between attempts it waits with backoff and jitter, or as long
    /// as the server's Retry-After asks. While `outage` says the destination used up every
    /// attempt on an earlier batch and has not answered since, a batch gets one attempt. Any
    /// answer (`answered`: a 503 as much as a 204) lifts that, and the batch gets its full
    /// attempts: a server that is starting again answers 503 before it takes writes.
    func retrying(
        outage: DeliveryOutage? = nil, sleep: (Int) -> Void,
        _ attempt: () -> (reason: String, retryAfter: String?, answered: Bool)?
    ) -> String? {
        var allowed = outage?.isDown == true ? 1 : attempts
        var count = 0
        while true {
            count += 1
            guard let retry = attempt() else {
                outage?.isDown = false
                return nil
            }
            if retry.answered, outage?.isDown == true || allowed < attempts {
                outage?.isDown = false
                allowed = attempts
            }
            guard count < allowed else {
                outage?.isDown = true
                if allowed < attempts { return "\(retry.reason) (1 attempt: the destination was already down)" }
                return "\(retry.reason) (after \(count) attempt\(count == 1 ? "" : "s"))"
            }
            if stop?.isRequested == true { return "\(retry.reason) (interrupted before retrying)" }
            sleep(delay(beforeAttempt: count, retryAfter: retry.retryAfter))
        }
    }

    func delay(beforeAttempt attempt: Int, retryAfter: String?) -> Int {
        if let retryAfter, let seconds = Int(retryAfter.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return min(seconds * 1000, maximumDelay * 3)
        }
        let exponential = min(maximumDelay, baseDelay << min(attempt - 1, 20))
        return Int(Double(exponential) * Double.random(in: 0.5...1.5))
    }
}
