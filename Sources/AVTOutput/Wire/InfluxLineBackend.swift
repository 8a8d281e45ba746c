import AVTCore
import AVTJSON

/// Writes what an InfluxDB backend would send, as line protocol, to a sink (`--format influx`).
package final class InfluxLineBackend: RecordBackend {
    private var writer: InfluxLineWriter
    private let filter: RecordFilter
    private var output: SinkBuffer

    package init(
        sink: ByteSink, encoder: InfluxLineEncoder, records: RecordEncoder, filter: RecordFilter = RecordFilter()
    ) {
        self.output = SinkBuffer(sink: sink)
        self.writer = InfluxLineWriter(encoder: encoder, records: records)
        self.filter = filter
    }

    package var writeError: OutputError? { output.error }

    package func sendEvent(_ event: Event) {
        guard filter.events, !output.failed else { return }
        writer.write(event, into: &output.bytes)
        output.flushIfFull()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics, !output.failed else { return }
        writer.write(metric, into: &output.bytes)
        output.flushIfFull()
    }

    package func endOfService() { output.flush() }
}
