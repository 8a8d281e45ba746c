import AVTReplay

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a run's servers took, and how the run ends because of it: delivered is ok; a signal
/// ends it 128 + the signal; anything in the dead-letter file ends it 3 (which wins, since those
/// records need `send`).
package struct DeliveryReport: Sendable, Equatable {
    package struct Server: Sendable, Equatable {
        package var name: String
        /// What the server counts: points or events.
        package var unit: String
        package var delivered: Int
        package var undelivered: Int
        /// Sent, then replaced by a later point of the same instant (`--influx-compat`) or of the
        /// same path and step (carbon); not in `delivered`.
        package var overwritten: Int
        /// Whether overwritten points fail the run (exit 3): carbon's do, since the run was meant
        /// to keep them; `--influx-compat`'s are upstream's own behaviour, asked for.
        package var overwritingFails: Bool

        package init(
            name: String, unit: String, delivered: Int, undelivered: Int, overwritten: Int = 0,
            overwritingFails: Bool = false
        ) {
            (self.name, self.unit, self.delivered, self.undelivered) = (name, unit, delivered, undelivered)
            (self.overwritten, self.overwritingFails) = (overwritten, overwritingFails)
        }

        var line: String {
            // `unit` is plural ("points"); one is "1 point".
            let kept = "\(name): \(DeliveryReport.count(delivered, String(unit.dropLast()))) delivered, "
            guard overwritten > 0 else { return kept + "\(undelivered) undelivered" }
            let why =
                overwritingFails
                ? "overwritten by a later point of the same path and second"
                : "overwritten by a later point of the same instant (--influx-compat)"
            return kept + "\(overwritten) \(why), \(undelivered) undelivered"
        }
    }

    /// Points of one server that lay outside its window, so were kept instead of sent.
    package struct OutsideWindow: Sendable, Equatable {
        package var name: String
        package var points: Int
        package var window: DeliveryWindow

        package init(name: String, points: Int, window: DeliveryWindow) {
            (self.name, self.points, self.window) = (name, points, window)
        }

        /// The one line a run says about them.
        package var message: String {
            "\(name): \(DeliveryReport.count(points, window.noun)) outside what \(window.keeper) keeps "
                + "(\(window.description)) went to the dead-letter file, not to the server; \(window.fix)"
        }
    }

    package var servers: [Server]
    package var undelivered: Int
    /// The first distinct reasons, for the message.
    package var reasons: [String]
    package var deadLetterPath: String
    /// Records the dead-letter file held before this run added to it.
    package var heldBefore: Int
    /// The signal that stopped the replay, if one did.
    package var signal: Int32?
    package var outsideWindow: [OutsideWindow]
    /// Prometheus and VictoriaMetrics destinations whose series carry no label of this run (no
    /// `--label`): those servers keep one value per series and timestamp, and with an
    /// out-of-order window (VictoriaMetrics always) answer 204 to a second one, so a collision
    /// with another replay would go unnoticed by both runs. Said, so the user can tell runs apart.
    package var unlabelled: [String] = []

    package init(
        servers: [Server], undelivered: Int = 0, reasons: [String] = [], deadLetterPath: String = "",
        heldBefore: Int = 0, signal: Int32? = nil, outsideWindow: [OutsideWindow] = []
    ) {
        self.servers = servers
        self.undelivered = undelivered
        self.reasons = reasons
        self.deadLetterPath = deadLetterPath
        self.heldBefore = heldBefore
        self.signal = signal
        self.outsideWindow = outsideWindow
    }

    /// "1 record", "2 records".
    package static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// One line per server, then one per server with points outside its window.
    package var summary: [String] {
        servers.map(\.line) + outsideWindow.map(\.message)
            + (unlabelled.isEmpty
                ? []
                : [
                    unlabelled.joined(separator: ", ")
                        + ": no --label tells this run's series apart, so another replay of these inputs at "
                        + "the same times would collide with them (the server keeps one value per series and "
                        + "timestamp); give each run its own, e.g. --label run=NAME"
                ])
    }

    /// Where the dead letters went, and what the file already held.
    static func kept(in path: String, heldBefore: Int) -> String {
        heldBefore == 0
            ? "kept in \(path)" : "added to \(path), which already held \(count(heldBefore, "record"))"
    }

    /// Why the run does not end ok; nil when it does.
    package var failure: CommandFailure? {
        let interruption = signal.map {
            "interrupted by \($0 == SIGINT ? "SIGINT (Ctrl-C)" : "SIGTERM") before the end of the replay"
        }
        if let interruption, let signal {
            if servers.isEmpty { return CommandFailure(message: interruption, status: .interrupted(signal: signal)) }
            if undelivered == 0 {
                return CommandFailure(
                    message: interruption + "; everything replayed until then was delivered",
                    status: .interrupted(signal: signal))
            }
        }
        let overwritten = servers.filter { $0.overwritingFails && $0.overwritten > 0 }
        guard undelivered > 0 else {
            guard !overwritten.isEmpty else { return nil }
            return CommandFailure(
                message: overwritten.map {
                    "\($0.name): \(Self.count($0.overwritten, String($0.unit.dropLast()))) overwritten: carbon keeps one "
                        + "value per path and second, and sessions of this run sent several; keep the session in the "
                        + "path (no --no-session-label) or tell runs apart with --label"
                }.joined(separator: "; "),
                status: .notDelivered)
        }
        return CommandFailure(
            message: (interruption.map { $0 + ". " } ?? "")
                + "\(Self.count(undelivered, "record")) not delivered; "
                + Self.kept(in: deadLetterPath, heldBefore: heldBefore) + " (re-send with "
                + "`avtreplay send \(deadLetterPath) --to DEST`). Reasons: " + reasons.joined(separator: "; "),
            status: .notDelivered)
    }
}
