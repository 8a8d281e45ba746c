#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file atomically: into a temporary beside it, renamed over the target on `close()`,
/// so a failed run never leaves a half-written file.
public final class AtomicFileSink: ByteSink {
    public let path: String
    private let temporaryPath: String
    /// Where the bytes go until `close()`.
    package let descriptor: FileDescriptorSink
    private var closed = false

    public init(path: String) throws(OutputError) {
        self.path = path
        self.temporaryPath = path + ".tmp-\(getpid())"
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw OutputError(path: path, code: errno)
        }
        self.descriptor = FileDescriptorSink(fd: fd, name: path)
    }

    deinit { discard() }

    public func write(_ chunk: [UInt8]) throws(OutputError) { try descriptor.write(chunk) }

    public func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        try descriptor.write(contentsOf: bytes)
    }

    public func close() throws(OutputError) {
        guard !closed else { return }
        closed = true
        let failed = systemClose(descriptor.fd) != 0 || rename(temporaryPath, path) != 0
        if failed {
            let message = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw OutputError(path: path, message: message, isBrokenPipe: false)
        }
    }

    /// Drops the temporary file (nothing replaces the target).
    public func discard() {
        guard !closed else { return }
        closed = true
        _ = systemClose(descriptor.fd)
        unlink(temporaryPath)
    }
}
