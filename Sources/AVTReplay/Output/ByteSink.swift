#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where output bytes go. Writers buffer; a sink only moves bytes.
public protocol ByteSink: AnyObject {
    func write(_ bytes: [UInt8]) throws(OutputError)
    /// Makes everything written durable/visible (for files: rename into place).
    func close() throws(OutputError)
}

public struct OutputError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    /// The reader went away (`avtreplay run … | head`): not worth an error message.
    public var isBrokenPipe: Bool

    public var description: String { "cannot write \(path): \(message)" }

    public init(path: String, message: String, isBrokenPipe: Bool = false) {
        self.path = path
        self.message = message
        self.isBrokenPipe = isBrokenPipe
    }
}

/// Collects output in memory (tests, in-process use).
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public func write(_ chunk: [UInt8]) throws(OutputError) { bytes.append(contentsOf: chunk) }
    public func close() throws(OutputError) {}

    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Writes to an open file descriptor (stdout by default).
public final class FileDescriptorSink: ByteSink {
    let fd: Int32
    let name: String

    public init(fd: Int32 = 1, name: String = "standard output") {
        self.fd = fd
        self.name = name
    }

    public func write(_ chunk: [UInt8]) throws(OutputError) {
        let failure: Int32? = chunk.withUnsafeBytes { raw in
            guard var base = raw.baseAddress else { return nil }
            var left = raw.count
            while left > 0 {
                let n = systemWrite(fd, base, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                left -= n
                base += n
            }
            return nil
        }
        if let code = failure {
            throw OutputError(path: name, message: String(cString: strerror(code)), isBrokenPipe: code == EPIPE)
        }
    }

    public func close() throws(OutputError) {}
}

/// Writes a file atomically: into a temporary beside it, renamed over the target on `close()`,
/// so a failed run never leaves a half-written file.
public final class AtomicFileSink: ByteSink {
    public let path: String
    private let temporaryPath: String
    private let descriptor: FileDescriptorSink
    private var closed = false

    public init(path: String) throws(OutputError) {
        self.path = path
        self.temporaryPath = path + ".tmp-\(getpid())"
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw OutputError(path: path, message: String(cString: strerror(errno)), isBrokenPipe: false)
        }
        self.descriptor = FileDescriptorSink(fd: fd, name: path)
    }

    deinit { discard() }

    public func write(_ chunk: [UInt8]) throws(OutputError) { try descriptor.write(chunk) }

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

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}
