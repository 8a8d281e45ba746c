import AVTCore
import AVTJSON

/// A backend that writes each delivery as one JSON line, in delivery order, through a buffer.
/// Backends cannot throw into the event chain, so the first write error is kept, later output is
/// dropped, and the caller reads `writeError` when the replay is done.
// Its state is `@exclusivity(unchecked)`: one backend is driven by one replay on one thread and
// no access to these properties spans a call that could reach them again; the checks would cost
// one pair per record. (A leaf of the output path, not domain code.)
public final class JSONLinesBackend: RecordBackend {
    /// Turns events and metrics into records.
    @exclusivity(unchecked) public private(set) var encoder: RecordEncoder
    /// Which records are written.
    public let filter: RecordFilter
    @exclusivity(unchecked) private var output: SinkBuffer

    /// A backend writing one JSON Lines record per event and metric to `sink`.
    public init(sink: ByteSink, encoder: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.output = SinkBuffer(sink: sink)
        self.encoder = encoder
        self.filter = filter
    }

    /// The first write error; later records are dropped.
    public var writeError: OutputError? { output.error }

    public func sendMetric(_ metric: Metric) {
        guard filter.metrics, !output.failed else { return }
        encoder.encode(metric, into: &output.bytes)
        output.flushIfFull()
    }

    public func sendEvent(_ event: Event) {
        guard filter.events, !output.failed else { return }
        encoder.encode(event, into: &output.bytes)
        output.flushIfFull()
    }

    public func endOfService() { flush() }

    /// Writes out what is buffered.
    public func flush() { output.flush() }
}
