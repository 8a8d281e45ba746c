import AVTCore

/// `--format mediastream`: the Mediastream events of a replay as JSON Lines, one event per line,
/// in the order the collector would send them.
package final class MediastreamLineBackend: RecordBackend {
    private let translator: MediastreamTranslator
    private var output: SinkBuffer
    private weak var clock: VirtualClock?

    package init(sink: ByteSink, options: MediastreamOptions) {
        self.output = SinkBuffer(sink: sink)
        self.translator = MediastreamTranslator(options: options)
    }

    package var writeError: OutputError? { output.error }

    package func instrumentReady(_ instrument: Instrument) {
        clock = instrument.clock
        translator.start(instrumentId: instrument.instrumentId)
    }

    package func sendEvent(_ event: Event) { write(translator.consume(event)) }

    /// Metrics have no Mediastream counterpart.
    package func sendMetric(_ metric: Metric) {}

    /// The replay ends at the clock's time (`until`): the reports due by then go out.
    package func endOfService() {
        write(translator.finish(at: clock?.now ?? 0))
        output.flush()
    }

    private func write(_ events: [MediastreamEvent]) {
        guard !output.failed else { return }
        for event in events {
            var line = event.json
            line.withUTF8 { output.bytes.raw($0) }
            output.bytes.raw(UInt8(ascii: "\n"))
        }
        output.flushIfFull()
    }
}
