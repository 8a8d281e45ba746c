import AVTDelivery
import AVTOutput
import ArgumentParser
import Foundation

extension AVTReplayCommand {
    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver the records of a dead-letter file (what a run could not deliver).",
            discussion: """
                Each entry keeps its wire format and timestamp unit, so lines go out exactly as they were \\
                meant. What still cannot be delivered goes to a new dead-letter file.

                Exit codes: 0 all delivered, 2 bad input, 3 some still not delivered.

                Examples:
                  avtreplay send avtreplay-undelivered.jsonl --to influxdb://127.0.0.1:8086/telemetry
                """)

        @Argument(help: ArgumentHelp("The dead-letter file.", valueName: "file"))
        var file: String

        @Option(name: .customLong("to"), help: ArgumentHelp("Where to deliver: influxdb://…, graphite://…, newrelic://… or mediastream+http(s)://… (default: each entry's own destination).", valueName: "dest"))
        var destination: String?

        @Option(help: ArgumentHelp("Host of both New Relic APIs instead of New Relic's own.", valueName: "url"))
        var newrelicEndpoint: String?

        @Option(help: ArgumentHelp("Where lines that still fail are kept.", valueName: "file"))
        var deadLetter: String = "avtreplay-undelivered-again.jsonl"

        @Option(help: ArgumentHelp("Attempts per batch on connection errors, timeouts, 429 and 5xx.", valueName: "n"))
        var deliveryAttempts: Int = 5

        @Option(help: ArgumentHelp(
            "gzip InfluxDB request bodies: auto (default: not to a loopback host), always or never.", valueName: "when"))
        var influxGzip: DeliveryPolicy.GzipPolicy = .auto

        private func report(_ ledger: DeliveryLedger, _ destination: String) {
            Diagnostics.printRaw(
                "avtreplay: \(destination): \(ledger.delivered[destination] ?? 0) delivered, \(ledger.undelivered[destination] ?? 0) undelivered")
        }

        func run() throws {
            let entries: [DeadLetterEntry]
            do {
                entries = try DeadLetterEntry.read(path: file)
            } catch {
                throw CLIFailure.badInput(error.description)
            }
            let ledger = DeliveryLedger(deadLetterPath: deadLetter)
            var policy = DeliveryPolicy()
            policy.attempts = deliveryAttempts
            policy.gzip = influxGzip
            // Lines go out per (destination, format), in file order.
            var groups: [(key: String, format: String, destination: String, lines: [String])] = []
            for entry in entries {
                let target = destination ?? entry.destination
                let key = target + "\u{1}" + entry.format
                if let index = groups.firstIndex(where: { $0.key == key }) {
                    groups[index].lines.append(entry.line)
                } else {
                    groups.append((key, entry.format, target, [entry.line]))
                }
            }
            for group in groups where group.format == "graphite" {
                let server: GraphiteDestination
                do {
                    server = try GraphiteDestination(group.destination)
                } catch {
                    throw CLIFailure.badInput(error.description)
                }
                GraphiteDelivery(destination: server, policy: policy, ledger: ledger, retention: Int.max / 2).deliver(group.lines)
                report(ledger, group.destination)
            }
            for group in groups where group.format.hasPrefix("newrelic") {
                guard let kind = NewRelicDelivery.Kind(rawValue: group.format) else {
                    throw CLIFailure.badInput("\(file): unknown format \"\(group.format)\"")
                }
                let server: NewRelicDestination
                do {
                    server = try NewRelicDestination(group.destination, endpoint: newrelicEndpoint, environment: ProcessInfo.processInfo.environment)
                } catch {
                    throw CLIFailure.badInput(error.description)
                }
                NewRelicDelivery(destination: server, policy: policy, ledger: ledger).deliver(group.lines, kind: kind)
                report(ledger, group.destination)
            }
            for group in groups where group.format == MediastreamDelivery.format {
                let server: MediastreamDestination
                do {
                    server = try MediastreamDestination(group.destination)
                } catch {
                    throw CLIFailure.badInput(error.description)
                }
                MediastreamDelivery(destination: server, policy: policy, ledger: ledger).deliver(group.lines)
                report(ledger, group.destination)
            }
            for group in groups where group.format != "graphite" && !group.format.hasPrefix("newrelic") && group.format != MediastreamDelivery.format {
                let parts = group.format.split(separator: "/")
                guard parts.first == "influx", let precision = InfluxLineEncoder.Precision(rawValue: parts.count > 1 ? String(parts[1]) : "ms")
                else {
                    throw CLIFailure.badInput("\(file): unknown format \"\(group.format)\"")
                }
                let server: InfluxDestination
                do {
                    server = try InfluxDestination(group.destination, precision: precision, environment: ProcessInfo.processInfo.environment)
                } catch {
                    throw CLIFailure.badInput(error.description)
                }
                InfluxDelivery(destination: server, policy: policy, ledger: ledger).deliver(group.lines)
                report(ledger, group.destination)
            }
            try ledger.close()
            if ledger.undeliveredCount > 0 {
                throw CLIFailure(
                    message: "\(ledger.undeliveredCount) records still not delivered; kept in \(deadLetter). Reasons: "
                        + ledger.reasons.joined(separator: "; "),
                    exitCode: .notDelivered)
            }
        }
    }
}
