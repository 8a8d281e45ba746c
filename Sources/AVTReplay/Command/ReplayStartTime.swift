import AVTFormats
import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--start-time` and `--end-time`: a wall-clock time, as epoch milliseconds.
package enum ReplayStartTime {
    /// ISO-8601 (`2026-03-01T12:00:00Z`), epoch milliseconds, or `now`; `flag` names the option in
    /// the error.
    package static func parse(
        _ text: String, flag: String = "--start-time", now: () -> Int = ReplayStartTime.now
    ) throws(UsageError) -> Int {
        if text == "now" { return now() }
        if let ms = Int(text) { return ms }
        if let ms = ISO8601.parse(text) { return ms }
        throw UsageError(
            "\(flag) expects ISO-8601 (2026-03-01T12:00:00Z), epoch milliseconds or now; got '\(text)'.")
    }

    /// The real-time clock in epoch milliseconds.
    package static func now() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
