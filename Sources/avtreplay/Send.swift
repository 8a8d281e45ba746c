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
                meant. Lines go to --to; to their own destinations (which the file names, with the \
                credentials in the environment) only with --trust-destinations: without either, they stay \
                dead-lettered. What still cannot be delivered is added to another dead-letter file (--dead-letter); \
                given the file itself, it keeps only what is still undelivered. The delivery flags are \
                those of `run`, and each server's window is checked again: a point ahead of carbon's \
                present is sent once its time has come.

                Exit codes: 0 all delivered, 2 bad input, 3 some still not delivered.

                Examples:
                  avtreplay send avtreplay-undelivered.jsonl --to influxdb://127.0.0.1:8086/db
                  avtreplay send dead.jsonl --trust-destinations --dead-letter dead.jsonl
                """)

        @Argument(help: ArgumentHelp("The dead-letter file.", valueName: "file"))
        var file: String

        @Option(
            name: .customLong("to"),
            help: ArgumentHelp(
                "Where to deliver: influxdb://…, graphite://…, newrelic://…, mediastream+http(s)://… or prometheus://… (default: none; see --trust-destinations).",
                valueName: "dest"))
        var destination: String?

        @Flag(
            help:
                "Deliver each line to the destination the file names for it, with the credentials in the environment (trust the file as the command line)."
        )
        var trustDestinations = false

        @OptionGroup var newRelic: NewRelicOptions<SendNewRelicEndpoint>
        @OptionGroup var deadLetter: DeadLetterOptions<SendDeadLetter>
        @OptionGroup var retry: RetryOptions
        @OptionGroup var batch: BatchOptions
        @OptionGroup var windows: WindowOptions

        @Option(
            help: ArgumentHelp(
                "gzip InfluxDB request bodies: auto (not to a loopback host), always or never.",
                valueName: "when"))
        var influxGzip: DeliveryPolicy.GzipPolicy = .auto

        @Option(
            name: .customLong("label"),
            help: ArgumentHelp(
                "Add NAME=VALUE to every line re-sent: a Prometheus/VictoriaMetrics label, an InfluxDB tag, a "
                    + "Graphite path component after --graphite-prefix. Repeatable; as run's --label.",
                valueName: "name=value"))
        var labels: [String] = []

        @Option(
            name: .customLong("graphite-prefix"),
            help: ArgumentHelp(
                "The Graphite prefix the lines were written with, after which --label values go.",
                valueName: "prefix"))
        var graphitePrefix = "OAVT"

        func validate() throws {
            do {
                _ = try SeriesLabels(parsing: labels)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() throws {
            let entries: [DeadLetterEntry]
            do {
                entries = try DeadLetterEntry.read(path: file)
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            let policy = batch.policy(attempts: retry.deliveryAttempts, gzip: influxGzip, windows: windows)
            // Re-sent into itself, the file is replaced by what is still undelivered; any other
            // dead-letter file is only added to.
            let same = FileIdentity.outputOverwritingInput(outputs: [deadLetter.deadLetter], inputs: [file]) != nil
            if !same {
                do {
                    try DeadLetterTarget.check(deadLetter.deadLetter, outputs: [])
                } catch {
                    throw CommandFailure.badInput(error.description)
                }
            }
            var settings = DestinationSettings(
                newRelicEndpoint: newRelic.newrelicEndpoint, environment: ProcessInfo.processInfo.environment)
            settings.prometheusWindow = windows.prometheusWindow
            var resend = DeadLetterResend(
                settings: settings, policy: policy,
                ledger: DeliveryLedger(deadLetterPath: deadLetter.deadLetter, replacing: same),
                graphiteRetention: windows.graphiteRetention)
            let seriesLabels = (try? SeriesLabels(parsing: labels)) ?? SeriesLabels()
            resend.relabel = DeadLetterRelabel(labels: seriesLabels.pairs, graphitePrefix: graphitePrefix)
            if !labels.isEmpty,
                entries.contains(where: { $0.format.hasPrefix("newrelic") || $0.format == "mediastream" })
            {
                Diagnostics.warning("--label is not added to New Relic or Mediastream lines: they have no series")
            }
            if let destination {
                resend.trust = .only([destination])
            } else if !trustDestinations {
                resend.trust = .only([])
            }
            try resend.deliver(DeadLetterResend.groups(entries, to: destination), file: file) {
                Diagnostics.print("avtreplay: " + $0)
            }
            if let failure = try resend.finish() { throw failure }
        }
    }
}
