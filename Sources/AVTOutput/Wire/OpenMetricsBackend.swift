import AVTCore
import AVTJSON

/// Writes the Prometheus samples of a session's records as OpenMetrics text to a sink
/// (`--format openmetrics`). The lines come in time order, each family described before its
/// first sample; `OpenMetricsMergingSink` groups them by family and ends the text with `# EOF`.
package final class OpenMetricsBackend: RecordBackend {
    private var writer: PrometheusSampleWriter
    private let filter: RecordFilter
    private var output: SinkBuffer
    private var lines: [String] = []

    package init(sink: ByteSink, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.output = SinkBuffer(sink: sink)
        self.writer = PrometheusSampleWriter(records: records, describes: true)
        self.filter = filter
    }

    package var writeError: OutputError? { output.error }

    package func sendEvent(_ event: Event) {
        guard filter.events, !output.failed else { return }
        writer.add(event, to: &lines)
        take()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics, !output.failed else { return }
        writer.add(metric, to: &lines)
        take()
    }

    package func endOfService() {
        writer.finish(to: &lines)
        take()
        output.flush()
    }

    private func take() {
        guard !lines.isEmpty else { return }
        for line in lines {
            output.bytes.raw(line)
            output.bytes.raw(0x0A)
        }
        lines.removeAll(keepingCapacity: true)
        output.flushIfFull()
    }
}
