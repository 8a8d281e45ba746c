import AVTCore
import AVTJSON

/// Writes the Prometheus samples of a session's records as OpenMetrics text to a sink
/// (`--format openmetrics`). The lines come in time order, each family described before its
/// first sample; `OpenMetricsMergingSink` groups them by family and ends the text with `# EOF`.
package final class OpenMetricsBackend: RecordBackend {
    private var writer: PrometheusSampleWriter
    private let filter: RecordFilter
    private var output: SinkBuffer
    private var samples: [PrometheusSample] = []

    package init(sink: ByteSink, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.output = SinkBuffer(sink: sink)
        self.writer = PrometheusSampleWriter(records: records, describes: true)
        self.filter = filter
    }

    package var writeError: OutputError? { output.error }

    package func sendEvent(_ event: Event) {
        guard filter.events, !output.failed else { return }
        writer.add(event, to: &samples)
        take()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics, !output.failed else { return }
        writer.add(metric, to: &samples)
        take()
    }

    package func endOfService() {
        writer.finish(to: &samples)
        take()
        output.flush()
    }

    /// Prints the samples written so far, each family's description before its first sample.
    private func take() {
        guard !samples.isEmpty || !writer.descriptions.isEmpty else { return }
        var next = 0
        for i in 0...samples.count {
            while next < writer.descriptions.count, writer.descriptions[next].before == i {
                for line in PrometheusSampleWriter.describing(writer.descriptions[next].family) {
                    output.bytes.raw(line)
                    output.bytes.raw(0x0A)
                }
                next += 1
            }
            guard i < samples.count else { break }
            let sample = samples[i]
            output.bytes.raw(writer.series[Int(sample.series)])
            output.bytes.raw(0x20)
            output.bytes.raw(PrometheusSampleWriter.number(sample.value))
            output.bytes.raw(0x20)
            output.bytes.raw(PrometheusSampleWriter.timestamp(sample.milliseconds))
            output.bytes.raw(0x0A)
        }
        writer.removeDescriptions()
        samples.removeAll(keepingCapacity: true)
        output.flushIfFull()
    }
}
