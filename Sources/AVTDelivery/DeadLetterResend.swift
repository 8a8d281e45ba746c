import AVTOutput
import AVTReplay

/// `avtreplay send`: delivers the lines of a dead-letter file again, each to its own destination
/// (or to one given instead) in the wire format and timestamp unit it was written in.
package struct DeadLetterResend {
    /// Lines of one destination and format, in file order.
    package struct Group: Sendable, Equatable {
        package var destination: String
        package var format: String
        package var lines: [String]
    }

    package var settings: DestinationSettings
    package var policy: DeliveryPolicy
    package var ledger: DeliveryLedger

    package init(settings: DestinationSettings, policy: DeliveryPolicy, ledger: DeliveryLedger) {
        self.settings = settings
        self.policy = policy
        self.ledger = ledger
    }

    /// The entries grouped per (destination, format), groups in order of first appearance;
    /// `destination` replaces every entry's own.
    package static func groups(_ entries: [DeadLetterEntry], to destination: String? = nil) -> [Group] {
        var groups: [Group] = []
        var index: [String: Int] = [:]
        for entry in entries {
            let target = destination ?? entry.destination
            let key = target + "\u{1}" + entry.format
            if let n = index[key] {
                groups[n].lines.append(entry.line)
            } else {
                index[key] = groups.count
                groups.append(Group(destination: target, format: entry.format, lines: [entry.line]))
            }
        }
        return groups
    }

    /// The kind of destination a dead-letter format goes to: nil for the Influx family and for
    /// unknown formats, which `influxPrecision` tells apart.
    static func kind(ofFormat format: String) -> Destination.Kind? {
        if format == "graphite" { return .graphite }
        if format.hasPrefix("newrelic") { return .newRelic }
        if format == MediastreamDelivery.format { return .mediastream }
        if format == PrometheusDelivery.format { return .prometheus }
        return nil
    }

    /// `influx/us` → us; `influx` (older files) → ms; nil for anything else.
    static func influxPrecision(ofFormat format: String) -> InfluxLineEncoder.Precision? {
        let parts = format.split(separator: "/")
        guard parts.first == "influx" else { return nil }
        return InfluxLineEncoder.Precision(rawValue: parts.count > 1 ? String(parts[1]) : "ms")
    }

    /// Delivers every group: Graphite first, then New Relic, Mediastream and InfluxDB, calling
    /// `delivered` with a summary line after each. `file` names the dead-letter file in errors.
    package func deliver(_ groups: [Group], file: String, delivered: (String) -> Void) throws(CommandFailure) {
        for kind in [Destination.Kind.graphite, .newRelic, .mediastream, .prometheus, nil] {
            for group in groups where Self.kind(ofFormat: group.format) == kind {
                try deliver(group, kind: kind, file: file)
                let name = group.destination
                delivered(
                    "\(name): \(ledger.delivered[name] ?? 0) delivered, \(ledger.undelivered[name] ?? 0) undelivered")
            }
        }
    }

    private func deliver(_ group: Group, kind: Destination.Kind?, file: String) throws(CommandFailure) {
        let unknown = CommandFailure.badInput("\(file): unknown format \"\(group.format)\"")
        var settings = self.settings
        let newRelicKind = NewRelicDelivery.Kind(rawValue: group.format)
        if kind == .newRelic, newRelicKind == nil { throw unknown }
        if kind == nil {
            guard let precision = Self.influxPrecision(ofFormat: group.format) else { throw unknown }
            settings.precision = precision
        }
        let destination: Destination
        do {
            destination = try Destination(group.destination, as: kind ?? .influx, settings: settings)
        } catch {
            throw .badInput(error.description)
        }
        switch destination {
        case .graphite(let server):
            // Lines already in the file were checked against the retention when they were written.
            GraphiteDelivery(destination: server, policy: policy, ledger: ledger, retention: Int.max / 2).deliver(
                group.lines)
        case .newRelic(let server):
            NewRelicDelivery(destination: server, policy: policy, ledger: ledger).deliver(
                group.lines, kind: newRelicKind!)
        case .mediastream(let server):
            MediastreamDelivery(destination: server, policy: policy, ledger: ledger).deliver(group.lines)
        case .prometheus(let server):
            PrometheusDelivery(destination: server, policy: policy, ledger: ledger).deliver(group.lines)
        case .influx(let server):
            InfluxDelivery(destination: server, policy: policy, ledger: ledger).deliver(group.lines)
        case .stdout, .file: break
        }
    }

    /// After delivering: publishes the new dead-letter file; a failure when lines are still undelivered.
    package func finish() throws -> CommandFailure? {
        try ledger.close()
        guard ledger.undeliveredCount > 0 else { return nil }
        return CommandFailure(
            message:
                "\(ledger.undeliveredCount) records still not delivered; kept in \(ledger.deadLetterPath). Reasons: "
                + ledger.reasons.joined(separator: "; "),
            status: .notDelivered)
    }
}
