import AVTDelivery
import AVTOutput
import AVTReplay
import ArgumentParser
import Foundation

extension AVTReplayCommand {
    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver the records of a dead-letter file (what a run could not deliver).",
            discussion: """
                Each entry keeps its wire format and timestamp unit, so lines go out exactly as they were \
                meant. What still cannot be delivered goes to a new dead-letter file.

                Exit codes: 0 all delivered, 2 bad input, 3 some still not delivered.

                Examples:
                  avtreplay send avtreplay-undelivered.jsonl --to influxdb://127.0.0.1:8086/db
                """)

        @Argument(help: ArgumentHelp("The dead-letter file.", valueName: "file"))
        var file: String

        @Option(
            name: .customLong("to"),
            help: ArgumentHelp(
                "Where to deliver: influxdb://…, graphite://…, newrelic://…, mediastream+http(s)://… or prometheus://… (default: each entry's own destination).",
                valueName: "dest"))
        var destination: String?

        @OptionGroup var newRelic: NewRelicOptions<SendNewRelicEndpoint>
        @OptionGroup var deadLetter: DeadLetterOptions<SendDeadLetter>
        @OptionGroup var retry: RetryOptions
        @OptionGroup var prometheus: PrometheusOptions

        @Option(
            help: ArgumentHelp(
                "gzip InfluxDB request bodies: auto (default: not to a loopback host), always or never.",
                valueName: "when"))
        var influxGzip: DeliveryPolicy.GzipPolicy = .auto

        func run() throws {
            let entries: [DeadLetterEntry]
            do {
                entries = try DeadLetterEntry.read(path: file)
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            var policy = DeliveryPolicy()
            (policy.attempts, policy.gzip) = (retry.deliveryAttempts, influxGzip)
            var settings = DestinationSettings(
                newRelicEndpoint: newRelic.newrelicEndpoint, environment: ProcessInfo.processInfo.environment)
            settings.prometheusWindow = prometheus.window
            let resend = DeadLetterResend(
                settings: settings, policy: policy, ledger: DeliveryLedger(deadLetterPath: deadLetter.deadLetter))
            try resend.deliver(DeadLetterResend.groups(entries, to: destination), file: file) {
                Diagnostics.printRaw("avtreplay: " + $0)
            }
            if let failure = try resend.finish() { throw failure }
        }
    }
}
