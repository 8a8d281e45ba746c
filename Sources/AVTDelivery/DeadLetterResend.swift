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
    /// `--graphite-retention`: carbon's window is checked again, so a point that was ahead of
    /// now when written is sent once its time has come, and not before.
    package var graphiteRetention: Int
    /// Where lines may go. A dead-letter file names a destination per line, but the file may come
    /// from a checkout under review, and a delivery carries the credentials found in the
    /// environment: the file alone must not choose the host that receives them.
    package var trust: Trust = .everyDestination
    /// `send --label`: labels added to every line that has series (see `DeadLetterRelabel`).
    package var relabel = DeadLetterRelabel(labels: [])

    /// The destinations `send` may deliver to.
    package enum Trust: Sendable, Equatable {
        /// Each line's own (`--trust-destinations`, or a library caller that wrote the file).
        case everyDestination
        /// Only these (the command line's `--to`); lines for any other stay dead-lettered.
        case only(Set<String>)

        func allows(_ destination: String) -> Bool {
            switch self {
            case .everyDestination: true
            case .only(let named): named.contains(destination)
            }
        }
    }

    package init(
        settings: DestinationSettings, policy: DeliveryPolicy, ledger: DeliveryLedger, graphiteRetention: Int = 86_400
    ) {
        self.settings = settings
        self.policy = policy
        self.ledger = ledger
        self.graphiteRetention = graphiteRetention
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
        // Points outside a window, per destination in order, said once after every group
        // (New Relic's events and metrics are two groups of one destination).
        var outside: [DeliveryReport.OutsideWindow] = []
        for kind in [Destination.Kind.graphite, .newRelic, .mediastream, .prometheus, nil] {
            for group in groups where Self.kind(ofFormat: group.format) == kind {
                let filter = try deliver(group, kind: kind, file: file)
                let name = group.destination
                // Lines carbon overwrites (a path and second sent twice) are not delivered.
                let overwritten = ledger.overwritten[name] ?? 0
                let lost =
                    overwritten > 0 ? "\(overwritten) overwritten by a later point of the same path and second, " : ""
                delivered(
                    "\(name): \((ledger.delivered[name] ?? 0) - overwritten) delivered, \(lost)"
                        + "\(ledger.undelivered[name] ?? 0) undelivered")
                guard let filter, filter.outside > 0 else { continue }
                if let known = outside.firstIndex(where: { $0.name == name }) {
                    outside[known].points += filter.outside
                } else {
                    outside.append(.init(name: name, points: filter.outside, window: filter.window))
                }
            }
        }
        for note in outside { delivered(note.message) }
    }

    /// Delivers one group; returns its destination's window check, if it has one.
    private func deliver(_ group: Group, kind: Destination.Kind?, file: String) throws(CommandFailure)
        -> DeliveryWindowFilter?
    {
        let unknown = CommandFailure.badInput("\(file): unknown format \"\(group.format)\"")
        var settings = self.settings
        let newRelicKind = NewRelicDelivery.Kind(rawValue: group.format)
        if kind == .newRelic, newRelicKind == nil { throw unknown }
        if kind == nil {
            guard let precision = Self.influxPrecision(ofFormat: group.format) else { throw unknown }
            settings.precision = precision
        }
        guard trust.allows(group.destination) else {
            ledger.deadLetter(
                group.lines, to: group.destination, format: group.format,
                reason: "not sent: the destination comes from the dead-letter file, not the command line "
                    + "(give --to \(group.destination), or --trust-destinations)")
            return nil
        }
        let destination: Destination
        do {
            destination = try Destination(group.destination, as: kind ?? .influx, settings: settings)
        } catch {
            throw .badInput(error.description)
        }
        guard let server = destination.delivery(policy: policy, ledger: ledger, graphiteRetention: graphiteRetention)
        else { return nil }
        let lines = relabel.apply(to: group.lines, format: group.format)
        switch server {
        case .graphite(let delivery): delivery.deliver(lines)
        case .newRelic(let delivery): delivery.deliver(lines, kind: newRelicKind!)
        case .mediastream(let delivery): delivery.deliver(lines)
        case .influx(let delivery): delivery.deliver(lines)
        case .prometheus(let delivery): delivery.deliver(lines)
        }
        return server.windowFilter
    }

    /// After delivering: publishes the new dead-letter file; a failure when lines are still undelivered.
    package func finish() throws -> CommandFailure? {
        try ledger.close()
        let overwritten = ledger.overwritten.values.reduce(0, +)
        guard ledger.undeliveredCount > 0 else {
            guard overwritten > 0 else { return nil }
            return CommandFailure(
                message: "\(DeliveryReport.count(overwritten, "point")) overwritten: carbon keeps one value per path "
                    + "and second, and the file held several",
                status: .notDelivered)
        }
        return CommandFailure(
            message:
                "\(DeliveryReport.count(ledger.undeliveredCount, "record")) still not delivered; "
                + DeliveryReport.kept(in: ledger.deadLetterPath, heldBefore: ledger.heldBefore) + ". Reasons: "
                + ledger.reasons.joined(separator: "; "),
            status: .notDelivered)
    }
}
