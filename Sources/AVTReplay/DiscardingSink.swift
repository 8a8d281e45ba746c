import AVTOutput

/// Takes bytes and keeps none: a second replay of a session run only to learn where it passes
/// `--max-output-bytes` has nothing to write.
final class DiscardingSink: ByteSink {
    func write(_ bytes: [UInt8]) throws(OutputError) {}
    func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {}
    func close() throws(OutputError) {}
}
