#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard output (the command line also gives it other open file descriptors).
public final class FileDescriptorSink: ByteSink {
    let fd: Int32
    let name: String

    /// A sink that writes to standard output.
    public convenience init() { self.init(fd: 1) }

    package init(fd: Int32, name: String = "standard output") {
        self.fd = fd
        self.name = name
        widenPipe(fd)
    }

    /// Writes `chunk` whole.
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
