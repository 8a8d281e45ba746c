#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Collects output in memory (tests, in-process use).
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public func write(_ chunk: [UInt8]) throws(OutputError) { bytes.append(contentsOf: chunk) }
    public func close() throws(OutputError) {}

    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
