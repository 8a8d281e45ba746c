import AVTCore
import AVTJSON

/// Writes what a Graphite backend would send, as plaintext lines, to a sink (`--format graphite`).
package final class GraphiteLineBackend: RecordBackend {
    private var aggregator: GraphiteAggregator
    private let filter: RecordFilter
    private var output: SinkBuffer

    package init(
        sink: ByteSink, encoder: GraphiteEncoder, startTime: Int, scope: [String] = [],
        filter: RecordFilter = RecordFilter()
    ) {
        self.output = SinkBuffer(sink: sink)
        self.aggregator = GraphiteAggregator(encoder: encoder, startTime: startTime, scope: scope)
        self.filter = filter
    }

    package var writeError: OutputError? { output.error }

    package func sendEvent(_ event: Event) {
        guard filter.events, !output.failed else { return }
        aggregator.add(event, into: &output.bytes)
        output.flushIfFull()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics, !output.failed else { return }
        aggregator.add(metric, into: &output.bytes)
        output.flushIfFull()
    }

    package func endOfService() {
        aggregator.flush(into: &output.bytes)
        output.flush()
    }
}
