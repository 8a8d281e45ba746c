import AVTOutput

/// One server a run delivers to, whatever its kind: one list instead of one per kind.
package enum ServerDelivery: Sendable {
    case influx(InfluxDelivery)
    case graphite(GraphiteDelivery)
    case newRelic(NewRelicDelivery)
    case mediastream(MediastreamDelivery)
    case prometheus(PrometheusDelivery)

    /// The destination as given, which is also the ledger's key.
    package var name: String {
        switch self {
        case .influx(let delivery): delivery.destination.description
        case .graphite(let delivery): delivery.destination.description
        case .newRelic(let delivery): delivery.destination.description
        case .mediastream(let delivery): delivery.destination.description
        case .prometheus(let delivery): delivery.destination.description
        }
    }

    /// What the summary counts: Influx, Graphite and New Relic take points; Mediastream takes
    /// events; Prometheus takes samples.
    package var unit: String {
        if case .mediastream = self { return "events" }
        if case .prometheus = self { return "samples" }
        return "points"
    }

    /// The check of the server's window (see `DeliveryWindow`); nil for a server that keeps any time.
    package var windowFilter: DeliveryWindowFilter? {
        switch self {
        case .influx(let delivery): delivery.windowFilter
        case .graphite(let delivery): delivery.windowFilter
        case .newRelic(let delivery): delivery.windowFilter
        case .prometheus(let delivery): delivery.windowFilter
        case .mediastream: nil
        }
    }

    package var kind: Destination.Kind {
        switch self {
        case .influx: .influx
        case .graphite: .graphite
        case .newRelic: .newRelic
        case .mediastream: .mediastream
        case .prometheus: .prometheus
        }
    }

    /// The backend that hands one session's records to this server.
    package func backend(_ outputs: OutputEncoders, records: RecordEncoder, filter: RecordFilter) -> RecordBackend {
        switch self {
        case .influx(let delivery):
            InfluxDeliveryBackend(delivery: delivery, encoder: outputs.influx, records: records, filter: filter)
        case .graphite(let delivery):
            GraphiteDeliveryBackend(
                delivery: delivery, encoder: outputs.graphite, startTime: records.startTime,
                scope: GraphiteEncoder.scope(of: records), filter: filter)
        case .newRelic(let delivery): NewRelicDeliveryBackend(delivery: delivery, records: records, filter: filter)
        case .mediastream(let delivery):
            MediastreamDeliveryBackend(delivery: delivery, options: outputs.mediastreamOptions(for: records))
        case .prometheus(let delivery): PrometheusDeliveryBackend(delivery: delivery, records: records, filter: filter)
        }
    }
}
