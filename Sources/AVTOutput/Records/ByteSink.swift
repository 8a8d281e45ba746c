#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where output bytes go. Writers buffer; a sink only moves bytes.
public protocol ByteSink: AnyObject {
    func write(_ bytes: [UInt8]) throws(OutputError)
    /// Writes bytes the caller owns, without an intermediate array (the output hot path).
    func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) throws(OutputError)
    /// Makes everything written durable/visible (for files: rename into place).
    func close() throws(OutputError)
}

extension ByteSink {
    public func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        try write(Array(bytes))
    }
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

    /// A failed system call on `path`, from its `errno`.
    init(path: String, code: Int32) {
        self.init(path: path, message: String(cString: strerror(code)), isBrokenPipe: code == EPIPE)
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
        widenPipe(fd)
    }

    public func write(_ chunk: [UInt8]) throws(OutputError) {
        try chunk.withUnsafeBufferPointer { (bytes) throws(OutputError) in try write(contentsOf: bytes) }
    }

    public func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        guard var base = UnsafeRawPointer(bytes.baseAddress) else { return }
        var left = bytes.count
        while left > 0 {
            let n = systemWrite(fd, base, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: name, code: errno)
            }
            left -= n
            base += n
        }
    }

    public func close() throws(OutputError) {}

    /// Appends the whole of an open file (from its current offset) inside the kernel: a
    /// parallel run's sessions wait in temporary files, and reading each back and writing it
    /// again cost as much CPU as a quarter of the replay. Returns false, having sent nothing,
    /// where the kernel cannot (the caller then copies); true once everything is sent.
    package func send(contentsOfFile input: Int32) throws(OutputError) -> Bool {
        #if os(Linux)
            var sent = 0
            while true {
                let n = sendfile(fd, input, nil, 1 << 30)
                if n > 0 {
                    sent += n
                    continue
                }
                if n == 0 { return true }
                if errno == EINTR { continue }
                if sent == 0, errno == EINVAL || errno == ENOSYS { return false }
                throw OutputError(path: name, code: errno)
            }
        #else
            return false
        #endif
    }
}

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

/// A replay writes hundreds of MB/s; through a pipe's default 64 KiB the writer stalls about
/// every 60 records until the reader catches up. One MiB (Linux's default limit for
/// unprivileged processes) lets both sides run. Best effort: other descriptors and systems are
/// left as they are.
private func widenPipe(_ fd: Int32) {
    #if os(Linux)
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return }
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (linux/fcntl.h; hidden behind _GNU_SOURCE in Glibc)
    _ = fcntl(fd, setPipeSize, Int32(1 << 20))
    #endif
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
