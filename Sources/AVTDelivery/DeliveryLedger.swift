import AVTJSON
import AVTOutput
import Foundation

/// What a run delivered and what it could not, across sessions and worker threads. Undelivered
/// lines go to a dead-letter JSON Lines file with their destination and the reason, so nothing
/// is lost silently and `avtreplay send` can deliver them later. The file is only added to
/// (see `DeadLetterFile`), except by a `send` that re-sends a file into itself: that one
/// replaces it with what is still undelivered.
package final class DeliveryLedger: @unchecked Sendable {
    package let deadLetterPath: String
    /// Whether the file is replaced (`send FILE --dead-letter FILE`) rather than added to.
    private let replacing: Bool
    private let lock = NSLock()
    private var file: DeadLetterFile?
    private var sink: AtomicFileSink?
    private var failure: OutputError?
    package private(set) var delivered: [String: Int] = [:]
    package private(set) var undelivered: [String: Int] = [:]
    /// Points sent but replaced on the server by a later one (`--influx-compat`).
    package private(set) var overwritten: [String: Int] = [:]
    /// The first distinct reasons, for the summary.
    package private(set) var reasons: [String] = []

    package init(deadLetterPath: String, replacing: Bool = false) {
        self.deadLetterPath = deadLetterPath
        self.replacing = replacing
    }

    /// Records the dead-letter file held before this run added to it.
    package var heldBefore: Int { lock.withLock { file?.heldBefore ?? 0 } }

    func countDelivered(_ n: Int, to destination: String) {
        lock.lock()
        delivered[destination, default: 0] += n
        lock.unlock()
    }

    func countOverwritten(_ n: Int, to destination: String) {
        lock.withLock { overwritten[destination, default: 0] += n }
    }

    /// Keeps lines the destination did not take, with why.
    /// `format` names the wire format and its timestamp unit (`influx/ms`), so `send` can post
    /// the lines as they were meant.
    func deadLetter(_ lines: [String], to destination: String, format: String, reason: String) {
        deadLetter(lines.map { ($0, reason) }, to: destination, format: format)
    }

    /// Keeps lines with a reason each (a server that names what is wrong with each line).
    func deadLetter(_ entries: [(line: String, reason: String)], to destination: String, format: String) {
        guard !entries.isEmpty else { return }
        var w = JSONWriter(capacity: entries.count * 256)
        for (line, reason) in entries {
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
        undelivered[destination, default: 0] += entries.count
        for (_, reason) in entries where reasons.count < 5 && !reasons.contains(reason) { reasons.append(reason) }
        do {
            if replacing {
                if sink == nil { sink = try AtomicFileSink(path: deadLetterPath) }
                try sink?.write(w.bytes)
            } else {
                if file == nil { file = DeadLetterFile(path: deadLetterPath) }
                try file?.append(w.bytes)
            }
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
        // A file re-sent into itself keeps only what is still undelivered: maybe nothing.
        if replacing, sink == nil { sink = try AtomicFileSink(path: deadLetterPath) }
        try sink?.close()
        try file?.close()
    }
}
