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

        package init(name: String, unit: String, delivered: Int, undelivered: Int) {
            (self.name, self.unit, self.delivered, self.undelivered) = (name, unit, delivered, undelivered)
        }
    }

    /// Graphite points carbon will drop because they are older than its retention.
    package struct OutsideRetention: Sendable, Equatable {
        package var name: String
        package var points: Int
        package var retention: Int

        package init(name: String, points: Int, retention: Int) {
            (self.name, self.points, self.retention) = (name, points, retention)
        }
    }

    package var servers: [Server]
    package var undelivered: Int
    /// The first distinct reasons, for the message.
    package var reasons: [String]
    package var deadLetterPath: String
    /// The signal that stopped the replay, if one did.
    package var signal: Int32?
    package var outsideRetention: [OutsideRetention]

    package init(
        servers: [Server], undelivered: Int = 0, reasons: [String] = [], deadLetterPath: String = "",
        signal: Int32? = nil, outsideRetention: [OutsideRetention] = []
    ) {
        self.servers = servers
        self.undelivered = undelivered
        self.reasons = reasons
        self.deadLetterPath = deadLetterPath
        self.signal = signal
        self.outsideRetention = outsideRetention
    }

    /// One line per server.
    package var summary: [String] {
        servers.map { "\($0.name): \($0.delivered) \($0.unit) delivered, \($0.undelivered) undelivered" }
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
        guard undelivered > 0 else { return nil }
        return CommandFailure(
            message: (interruption.map { $0 + ". " } ?? "")
                + "\(undelivered) records not delivered; kept in \(deadLetterPath) (re-send with "
                + "`avtreplay send \(deadLetterPath) --to DEST`). Reasons: " + reasons.joined(separator: "; "),
            status: .notDelivered)
    }

    /// Warnings worth giving when the run ends ok.
    package var warnings: [String] {
        outsideRetention.map {
            "\($0.name): \($0.points) points lie outside the \($0.retention) s retention; "
                + "carbon drops them without a word (replay with --start-time now, or set --graphite-retention)"
        }
    }
}
