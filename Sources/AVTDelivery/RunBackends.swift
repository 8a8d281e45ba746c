import AVTOutput
import AVTReplay
import AVTTimeline

/// What one session of a run writes to: the stream in `--format` (unless only servers were
/// named), every server, and, with `--speed`, a pacer in front of it all.
package struct RunBackends: Sendable {
    package var format: OutputFormat = .jsonl
    /// False when every destination is a server: the stream's records are not written anywhere.
    package var writesStream = true
    /// `--format table` in colour (a terminal).
    package var color = false
    package var encoders = OutputEncoders()
    package var servers: [ServerDelivery] = []
    /// `--speed`: nil replays as fast as possible.
    package var speed: Double?
    /// With `speed`, the longest a record waits in a batch, in seconds.
    package var maximumAge: Double = 1
    package var stop: StopRequest?
    /// `--max-columns`: attribute columns a CSV stream may have.
    package var maxColumns = InputLimits().maxColumns

    package init() {}

    /// The backend of one session writing to `sink`.
    package func backend(sink: ByteSink, records: RecordEncoder, filter: RecordFilter) -> RecordBackend {
        let servers = self.servers.map { $0.backend(encoders, records: records, filter: filter) }
        let backend: RecordBackend
        if !writesStream {
            backend = FanOutBackend(servers)
        } else {
            let stream = streamBackend(sink: sink, records: records, filter: filter)
            backend = servers.isEmpty ? stream : FanOutBackend([stream] + servers)
        }
        // Without --speed there is no pacer: nothing waits.
        guard let speed else { return backend }
        return PacedBackend(backend, speed: speed, maximumAge: maximumAge, stop: stop)
    }

    private func streamBackend(sink: ByteSink, records: RecordEncoder, filter: RecordFilter) -> RecordBackend {
        switch format {
        case .jsonl: JSONLinesBackend(sink: sink, encoder: records, filter: filter)
        case .csv: CSVRecordBackend(sink: sink, encoder: records, filter: filter, maxColumns: maxColumns)
        case .table: TableRecordBackend(sink: sink, encoder: records, filter: filter, color: color)
        case .influx: InfluxLineBackend(sink: sink, encoder: encoders.influx, records: records, filter: filter)
        case .graphite:
            GraphiteLineBackend(
                sink: sink, encoder: encoders.graphite, startTime: records.startTime,
                scope: GraphiteEncoder.scope(of: records), filter: filter)
        case .mediastream: MediastreamLineBackend(sink: sink, options: encoders.mediastreamOptions(for: records))
        case .openmetrics: OpenMetricsBackend(sink: sink, records: records, filter: filter)
        }
    }

    /// For `SessionRunner`.
    package var factory: SessionRunner.BackendFactory {
        { [self] sink, records, filter in backend(sink: sink, records: records, filter: filter) }
    }
}
