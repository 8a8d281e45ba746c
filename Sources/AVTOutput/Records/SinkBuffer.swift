import AVTJSON

/// Output bytes on their way to a sink: backends append records and the buffer writes them out
/// in large chunks. Backends cannot throw into the event chain, so the first write error is
/// kept, later output dropped, and the error read when the replay is done.
package struct SinkBuffer: ~Copyable {
    let sink: ByteSink
    let threshold: Int
    var bytes: JSONBuffer
    private(set) var error: OutputError?

    init(sink: ByteSink, threshold: Int = 1 << 16) {
        self.sink = sink
        self.threshold = threshold
        self.bytes = JSONBuffer(capacity: threshold * 2)
    }

    var failed: Bool { error != nil }

    mutating func flushIfFull() {
        if bytes.count >= threshold { flush() }
    }

    mutating func flush() {
        guard error == nil, !bytes.isEmpty else { return }
        do {
            try bytes.withUnsafeBytes { (chunk) throws(OutputError) in try sink.write(contentsOf: chunk) }
        } catch {
            self.error = error
        }
        bytes.removeAll()
    }
}
