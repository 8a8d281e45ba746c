#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file atomically: into a temporary beside it, renamed over the target on `close()`,
/// so a failed run never leaves a half-written file. A symlink is written through: the rename
/// goes into its target's directory, so the link stays a link. An existing file keeps its mode.
public final class AtomicFileSink: ByteSink {
    public let path: String
    /// Where the rename lands: `path`, or the file a symlink at `path` points to.
    private let targetPath: String
    private let temporaryPath: String
    /// Where the bytes go until `close()`.
    package let descriptor: FileDescriptorSink
    private var closed = false

    public init(path: String) throws(OutputError) {
        self.path = path
        self.targetPath = Self.resolved(path)
        self.temporaryPath = targetPath + ".tmp-\(getpid())"
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw OutputError(path: path, code: errno)
        }
        var info = stat()
        // The umask must not change an existing file's permissions behind the user's back.
        if stat(targetPath, &info) == 0 { _ = fchmod(fd, info.st_mode & 0o7777) }
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
        let failed = systemClose(descriptor.fd) != 0 || rename(temporaryPath, targetPath) != 0
        if failed {
            let message = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw OutputError(path: path, message: message, isBrokenPipe: false)
        }
    }

    /// The file a (chain of) symlink(s) at `path` ends at; `path` itself when it is no symlink.
    private static func resolved(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + link
            } else {
                current = link
            }
        }
        return current
    }

    /// Drops the temporary file (nothing replaces the target).
    public func discard() {
        guard !closed else { return }
        closed = true
        _ = systemClose(descriptor.fd)
        unlink(temporaryPath)
    }
}
