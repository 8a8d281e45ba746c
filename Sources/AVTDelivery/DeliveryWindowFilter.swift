import AVTReplay
import Foundation

/// The check every windowed destination makes before sending: points outside its window go to
/// the dead-letter file with the reason, and are counted for the run's one message per
/// destination (see `DeliveryReport.OutsideWindow`). A destination added later states its
/// window and calls `admit` with a way to read a line's time; nothing else.
package final class DeliveryWindowFilter: @unchecked Sendable {
    package let window: DeliveryWindow
    let destination: String
    let ledger: DeliveryLedger
    /// Epoch milliseconds; injected by tests.
    let now: @Sendable () -> Int
    private let lock = NSLock()
    private var outsideCount = 0

    package init(
        window: DeliveryWindow, destination: String, ledger: DeliveryLedger,
        now: @escaping @Sendable () -> Int = ReplayStartTime.now
    ) {
        self.window = window
        self.destination = destination
        self.ledger = ledger
        self.now = now
    }

    /// Points found outside the window so far.
    package var outside: Int { lock.withLock { outsideCount } }

    /// The lines inside the window, in order. `time` gives a line's epoch milliseconds; a line
    /// whose time cannot be read is sent (the server's answer then decides).
    package func admit(_ lines: [String], format: String, time: (String) -> Int?) -> [String] {
        guard !window.isUnbounded else { return lines }
        let now = now()
        var kept: [String] = []
        var refused: [String] = []
        kept.reserveCapacity(lines.count)
        for line in lines {
            if let ms = time(line), !window.contains(ms, now: now) {
                refused.append(line)
            } else {
                kept.append(line)
            }
        }
        if !refused.isEmpty {
            lock.withLock { outsideCount += refused.count }
            ledger.deadLetter(
                refused, to: destination, format: format,
                reason: "outside what \(window.keeper) keeps (\(window.description)) when sent")
        }
        return kept
    }
}
