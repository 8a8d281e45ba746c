import AVTJSON
import AVTOutput
import Foundation

/// What a run delivered and what it could not, across sessions and worker threads. Undelivered
/// lines go to a dead-letter JSON Lines file with their destination and the reason, so nothing
/// is lost silently and `avtreplay send` can deliver them later.
package final class DeliveryLedger: @unchecked Sendable {
    package let deadLetterPath: String
    private let lock = NSLock()
    private var sink: AtomicFileSink?
    private var failure: OutputError?
    package private(set) var delivered: [String: Int] = [:]
    package private(set) var undelivered: [String: Int] = [:]
    /// The first distinct reasons, for the summary.
    package private(set) var reasons: [String] = []

    package init(deadLetterPath: String) { self.deadLetterPath = deadLetterPath }

    func countDelivered(_ n: Int, to destination: String) {
        lock.lock()
        delivered[destination, default: 0] += n
        lock.unlock()
    }

    /// Keeps lines the destination did not take, with why.
    /// `format` names the wire format and its timestamp unit (`influx/ms`), so `send` can post
    /// the lines as they were meant.
    func deadLetter(_ lines: [String], to destination: String, format: String, reason: String) {
        guard !lines.isEmpty else { return }
        var w = JSONWriter(capacity: lines.count * 256)
        for line in lines {
            w.raw("{\"to\":")
            w.string(destination)
            w.raw(",\"format\":")
            w.string(format)
            w.raw(",\"reason\":")
            w.string(reason)
            w.raw(",\"line\":")
            w.string(line)
            w.raw("}\n")
        }
        lock.lock()
        defer { lock.unlock() }
        undelivered[destination, default: 0] += lines.count
        if reasons.count < 5, !reasons.contains(reason) { reasons.append(reason) }
        do {
            if sink == nil { sink = try AtomicFileSink(path: deadLetterPath) }
            try sink?.write(w.bytes)
        } catch {
            failure = error
        }
    }

    package var undeliveredCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return undelivered.values.reduce(0, +)
    }

    /// Publishes the dead-letter file (if anything went there).
    package func close() throws {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        try sink?.close()
    }
}
