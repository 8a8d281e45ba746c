#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where output bytes go. Writers buffer; a sink only moves bytes.
public protocol ByteSink: AnyObject {
    /// Appends `bytes`.
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

/// A replay writes hundreds of MB/s; through a pipe's default 64 KiB the writer stalls about
/// every 60 records until the reader catches up. One MiB (Linux's default limit for
/// unprivileged processes) lets both sides run. Best effort: other descriptors and systems are
/// left as they are.
func widenPipe(_ fd: Int32) {
    #if os(Linux)
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return }
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (linux/fcntl.h; hidden behind _GNU_SOURCE in Glibc)
    _ = fcntl(fd, setPipeSize, Int32(1 << 20))
    #endif
}

func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}

func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}
