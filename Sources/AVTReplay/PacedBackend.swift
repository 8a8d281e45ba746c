import AVTCore
import AVTOutput
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `run --speed X`: holds each record until its virtual time comes in wall-clock time, then
/// hands it on. Record k at virtual time t leaves at `wallStart + (t − tStart) / speed`, where
/// the start pair is taken at the session's first record; timer-fired pings reach the backend
/// with the clock at their due time, so they are paced like any other record.
///
/// It sits between the instrument and the backends, so the replay engine never sleeps: without
/// `--speed` the run has no pacer at all. While it waits, batching backends are flushed every
/// `maximumAge` seconds, so a slow trickle of records still reaches the servers promptly. A
/// stop request (Ctrl-C) ends all waiting at once.
package final class PacedBackend: RecordBackend {
    package let inner: RecordBackend
    package let speed: Double
    package let maximumAge: Double
    private let stop: StopRequest?
    private weak var instrument: Instrument?
    private var start: (wall: UInt64, virtual: Int)?
    private var lastFlush: UInt64 = 0

    package init(_ inner: RecordBackend, speed: Double, maximumAge: Double = 1, stop: StopRequest? = nil) {
        precondition(speed > 0)
        self.inner = inner
        self.speed = speed
        self.maximumAge = maximumAge
        self.stop = stop
    }

    package var writeError: OutputError? { inner.writeError }

    package func instrumentReady(_ instrument: Instrument) {
        self.instrument = instrument
        inner.instrumentReady(instrument)
    }

    package func sendEvent(_ event: Event) {
        pace()
        inner.sendEvent(event)
    }

    package func sendMetric(_ metric: Metric) {
        pace()
        inner.sendMetric(metric)
    }

    package func endOfService() { inner.endOfService() }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Sleeps until the current virtual time is due in wall-clock time.
    private func pace() {
        guard let virtual = instrument?.clock.now else { return }
        var now = Self.monotonicNanoseconds()
        guard let start else {
            start = (now, virtual)
            lastFlush = now
            return
        }
        let offset = Double(virtual - start.virtual) / speed * 1_000_000  // virtual ms → wall ns
        let due = start.wall &+ UInt64(max(0, offset))
        let age = UInt64(maximumAge * 1e9)
        while now < due, stop?.isRequested != true {
            if now &- lastFlush >= age {
                (inner as? AgeFlushing)?.flushPending()
                lastFlush = Self.monotonicNanoseconds()
            }
            // Slices of at most 50 ms, so a stop request is noticed quickly.
            let wake = min(due, lastFlush &+ age, now &+ 50_000_000)
            if wake > now {
                var pause = timespec(
                    tv_sec: Int(((wake - now) / 1_000_000_000)), tv_nsec: Int((wake - now) % 1_000_000_000))
                nanosleep(&pause, nil)
            }
            now = Self.monotonicNanoseconds()
        }
        if now &- lastFlush >= age {
            (inner as? AgeFlushing)?.flushPending()
            lastFlush = Self.monotonicNanoseconds()
        }
    }
}
