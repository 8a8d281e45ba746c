#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file atomically: into a temporary beside it, renamed over the target on `close()`,
/// so a failed run never leaves a half-written file. A symlink is written through: the rename
/// goes into its target's directory, so the link stays a link. An existing file keeps its mode.
/// A target that exists and is no regular file (a character device such as /dev/null, a FIFO,
/// a socket) is written in place: opened with O_WRONLY alone, never created, truncated or
/// renamed over, so the special file stays what it is. A FIFO's open waits for a reader.
public final class AtomicFileSink: ByteSink {
    /// The file written.
    public let path: String
    /// Where the rename lands: `path`, or the file a symlink at `path` points to.
    private let targetPath: String
    /// nil when the target is a special file written in place (nothing to rename).
    private let temporaryPath: String?
    /// Where the bytes go until `close()`.
    package let descriptor: FileDescriptorSink
    private var closed = false
    private var partial = false
    /// Where `close()` left an output marked partial (`keepAsPartial`); nil otherwise.
    public private(set) var partialPath: String?

    /// A sink that writes a temporary file beside `path`, renamed over it by `close()`.
    public init(path: String) throws(OutputError) {
        self.path = path
        self.targetPath = Self.resolved(path)
        var existing = stat()
        let exists = stat(targetPath, &existing) == 0
        let kind = existing.st_mode & S_IFMT
        if exists, kind != S_IFREG, kind != S_IFDIR {
            // Invariant: O_WRONLY without O_CREAT/O_TRUNC only opens what is there; a device or
            // FIFO is never replaced by a regular file.
            let fd = open(targetPath, O_WRONLY)
            guard fd >= 0 else { throw OutputError(path: path, code: errno) }
            self.temporaryPath = nil
            self.descriptor = FileDescriptorSink(fd: fd, name: path)
            return
        }
        let temporaryPath = targetPath + ".tmp-\(getpid())"
        self.temporaryPath = temporaryPath
        // A fresh file, never one planted under the temporary's name: a symlink there (a checkout
        // can hold one) is removed, not followed, and O_EXCL | O_NOFOLLOW refuses a file that
        // appears in between.
        unlink(temporaryPath)
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw OutputError(path: path, code: errno)
        }
        // The umask must not change an existing file's permissions behind the user's back.
        if exists { _ = fchmod(fd, existing.st_mode & 0o7777) }
        self.descriptor = FileDescriptorSink(fd: fd, name: path)
    }

    deinit { discard() }

    /// Appends `chunk` to the temporary file.
    public func write(_ chunk: [UInt8]) throws(OutputError) { try descriptor.write(chunk) }

    public func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        try descriptor.write(contentsOf: bytes)
    }

    /// Makes `close()` keep what was written as `PATH.partial` and leave `path` as it was: an
    /// interrupted run's records are whole up to where it stopped, but they are not the output,
    /// and a file under the final name must be the whole output. A `PATH.partial` that already
    /// exists is not replaced: the bytes then stay under the temporary's name.
    public func keepAsPartial() { partial = true }

    public func close() throws(OutputError) {
        guard !closed else { return }
        closed = true
        guard let temporaryPath else {
            if systemClose(descriptor.fd) != 0 { throw OutputError(path: path, code: errno) }
            return
        }
        if partial {
            if systemClose(descriptor.fd) != 0 { throw OutputError(path: path, code: errno) }
            // link() fails on an existing name, where rename() would replace it.
            let partialName = targetPath + ".partial"
            if link(temporaryPath, partialName) == 0 {
                unlink(temporaryPath)
                partialPath = partialName
            } else {
                partialPath = temporaryPath
            }
            return
        }
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
        if let temporaryPath { unlink(temporaryPath) }
    }
}
