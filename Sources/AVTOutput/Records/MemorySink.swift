#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Collects output in memory (tests, in-process use).
public final class MemorySink: ByteSink {
    /// Everything written.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    /// Keeps `chunk`.
    public func write(_ chunk: [UInt8]) throws(OutputError) { bytes.append(contentsOf: chunk) }
    public func close() throws(OutputError) {}

    /// Everything written, as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
