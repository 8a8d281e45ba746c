import AVTCore
import AVTJSON

/// Writes what an InfluxDB backend would send, as line protocol, to a sink (`--format influx`).
public final class InfluxLineBackend: RecordBackend {
    public private(set) var writeError: OutputError?
    private var writer: InfluxLineWriter
    private let filter: RecordFilter
    private let sink: ByteSink
    private var buffer = JSONBuffer(capacity: 1 << 17)

    public init(sink: ByteSink, encoder: InfluxLineEncoder, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.sink = sink
        self.writer = InfluxLineWriter(encoder: encoder, records: records)
        self.filter = filter
    }

    public func sendEvent(_ event: Event) {
        guard filter.events, writeError == nil else { return }
        writer.write(event, into: &buffer)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func sendMetric(_ metric: Metric) {
        guard filter.metrics, writeError == nil else { return }
        writer.write(metric, into: &buffer)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func endOfService() { flush() }

    private func flush() {
        guard writeError == nil, !buffer.isEmpty else { return }
        do { try sink.write(buffer.bytes) } catch { writeError = error }
        buffer.removeAll()
    }
}

/// Writes what a Graphite backend would send, as plaintext lines, to a sink (`--format graphite`).
public final class GraphiteLineBackend: RecordBackend {
    public private(set) var writeError: OutputError?
    private var aggregator: GraphiteAggregator
    private let filter: RecordFilter
    private let sink: ByteSink
    private var buffer = JSONBuffer(capacity: 1 << 16)

    public init(sink: ByteSink, encoder: GraphiteEncoder, startTime: Int, filter: RecordFilter = RecordFilter()) {
        self.sink = sink
        self.aggregator = GraphiteAggregator(encoder: encoder, startTime: startTime)
        self.filter = filter
    }

    public func sendEvent(_ event: Event) {
        guard filter.events, writeError == nil else { return }
        aggregator.add(event, into: &buffer)
        if buffer.count >= 1 << 15 { flush() }
    }

    public func sendMetric(_ metric: Metric) {
        guard filter.metrics, writeError == nil else { return }
        aggregator.add(metric, into: &buffer)
        if buffer.count >= 1 << 15 { flush() }
    }

    public func endOfService() {
        aggregator.flush(into: &buffer)
        flush()
    }

    private func flush() {
        guard writeError == nil, !buffer.isEmpty else { return }
        do { try sink.write(buffer.bytes) } catch { writeError = error }
        buffer.removeAll()
    }
}
