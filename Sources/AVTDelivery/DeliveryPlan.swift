import AVTOutput
import AVTTimeline

/// Where a run's records go, from its `--to` values and `-o`: at most one stream (standard
/// output or a file, in `--format`) and any number of servers, which share one dead-letter file.
package final class DeliveryPlan: Sendable {
    package let destinations: [Destination]
    /// The stream's path (`-` for standard output); nil when every destination is a server.
    package let streamPath: String?
    package let servers: [ServerDelivery]
    package let ledger: DeliveryLedger

    /// Records go to one file or stream: at most one of `stdout`, `file:PATH` and `-o`.
    package static func checkStream(destinations: [String], output: String) throws(UsageError) {
        let streams = destinations.filter { Destination.Kind(of: $0)?.isStream == true }
        if streams.count > 1 || (!streams.isEmpty && output != "-") {
            throw UsageError("Give one of stdout, file:PATH or -o: records go to one file or stream.")
        }
    }

    /// Parses every destination, in order (the first bad one is the error).
    package init(
        destinations: [String], output: String, settings: DestinationSettings, policy: DeliveryPolicy,
        deadLetter: String, graphiteRetention: Int
    ) throws(OutputError) {
        var parsed: [Destination] = []
        for text in destinations { parsed.append(try Destination(text, settings: settings)) }
        let ledger = DeliveryLedger(deadLetterPath: deadLetter)
        let stream = parsed.first { $0.kind.isStream }
        self.destinations = parsed
        self.streamPath = parsed.isEmpty ? output : stream?.streamPath
        self.servers = parsed.compactMap {
            $0.delivery(policy: policy, ledger: ledger, graphiteRetention: graphiteRetention)
        }
        self.ledger = ledger
    }

    /// The kinds of server this run delivers to.
    package var serverKinds: Set<Destination.Kind> { Set(servers.map(\.kind)) }

    /// Opens the stream: the file (written atomically), standard output, or, when only servers
    /// were named, memory that is thrown away.
    package func openStream() throws(OutputError) -> ByteSink {
        guard let streamPath else { return MemorySink() }
        return streamPath == "-" ? FileDescriptorSink() : try AtomicFileSink(path: streamPath)
    }

    /// After the replay: publishes the dead-letter file and says what each server took, and
    /// which series could collide with another run's (`labelled`: whether the run has `--label`s).
    package func finish(interruptedBy signal: Int32?, labelled: Bool = true) throws -> DeliveryReport {
        if !servers.isEmpty { try ledger.close() }
        var report = DeliveryReport(
            servers: servers.map { server in
                let overwritten = ledger.overwritten[server.name] ?? 0
                let sent = ledger.delivered[server.name] ?? 0
                return DeliveryReport.Server(
                    name: server.name, unit: server.unit, delivered: max(0, sent - overwritten),
                    undelivered: ledger.undelivered[server.name] ?? 0, overwritten: min(sent, overwritten),
                    overwritingFails: server.kind == .graphite)
            },
            undelivered: ledger.undeliveredCount, reasons: ledger.reasons, deadLetterPath: ledger.deadLetterPath,
            heldBefore: ledger.heldBefore, signal: signal,
            outsideWindow: servers.compactMap { server in
                guard let filter = server.windowFilter, filter.outside > 0 else { return nil }
                return .init(name: server.name, points: filter.outside, window: filter.window)
            })
        if !labelled { report.unlabelled = servers.filter { $0.kind == .prometheus }.map(\.name) }
        return report
    }
}
