#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A readable file or stdin (`-`), read in large chunks so inputs of any length stream through a
/// fixed amount of memory.
public final class ByteInput {
    /// The file's name as errors give it (`<stdin>` for standard input).
    public let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// A FIFO, terminal, socket or device: a read may wait for ever, so it waits in `poll` with
    /// a timeout and looks at `InputCancellation` between waits.
    private var mayBlock = false
    /// Bytes already read by `peek` (or given in memory), consumed from `pendingStart` on: an
    /// offset, not removal from the front, which would move the rest at every read.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// How long a line (`LineReader`) or a whole document (`readAll`) may be.
    public var limits = InputLimits()

    /// Opens a path, or standard input for `-`.
    public init(path: String) throws(TimelineError) {
        if path == "-" {
            name = "<stdin>"
            fd = 0
            ownsDescriptor = false
            var info = stat()
            mayBlock = fstat(0, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG
        } else {
            name = path
            // O_NONBLOCK: opening a FIFO must not wait for its writer (a signal would not end
            // that wait); reads of such a file wait in `poll` instead.
            fd = open(path, O_RDONLY | O_NONBLOCK)
            ownsDescriptor = true
            guard fd >= 0 else {
                throw TimelineError(file: path, message: "cannot read: \(String(cString: strerror(errno)))")
            }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw TimelineError(file: path, message: "is a directory, not a timeline")
            }
            mayBlock = (info.st_mode & S_IFMT) != S_IFREG
            if !mayBlock { sizeHint = Int(info.st_size) }
            // A regular file reads as it always did.
            if !mayBlock { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        }
    }

    /// A regular file's size when it was opened, to size buffers for small inputs (a corpus of
    /// small sessions would otherwise zero a full chunk per file); nil for anything else.
    package private(set) var sizeHint: Int?

    /// Bytes already in memory (fuzzing, tests, embedding): read exactly like a file.
    public init(bytes: [UInt8], name: String) {
        self.name = name
        fd = -1
        ownsDescriptor = false
        pending = bytes
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// Up to `count` first bytes, without consuming them (format sniffing on stdin).
    public func peek(_ count: Int) throws(TimelineError) -> [UInt8] {
        // Sniffed several times per input: what is at hand is not read (nor zeroed) again.
        if pendingStart > 0 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        if pending.count >= count || fd < 0 { return Array(pending.prefix(count)) }
        var chunk = [UInt8](repeating: 0, count: min(count, sizeHint.map { max($0 + 1, 1) } ?? count))
        while fd >= 0, pending.count < count {
            let n = try readDescriptor(into: &chunk, from: 0, limit: min(chunk.count, count - pending.count))
            if n == 0 { break }
            pending.append(contentsOf: chunk[0..<n])
        }
        return Array(pending.prefix(count))
    }

    /// Reads into `buffer` from `offset` to its end; returns the count, 0 at end of input.
    package func read(into buffer: inout [UInt8], from offset: Int) throws(TimelineError) -> Int {
        guard pendingStart == pending.count else {
            let n = min(pending.count - pendingStart, buffer.count - offset)
            buffer.replaceSubrange(offset..<(offset + n), with: pending[pendingStart..<(pendingStart + n)])
            pendingStart += n
            if pendingStart == pending.count {
                pending = []
                pendingStart = 0
            }
            return n
        }
        guard fd >= 0 else { return 0 }
        return try readDescriptor(into: &buffer, from: offset, limit: buffer.count - offset)
    }

    private func readDescriptor(into buffer: inout [UInt8], from offset: Int, limit: Int) throws(TimelineError) -> Int {
        let fd = self.fd
        let mayBlock = self.mayBlock
        let outcome: Int = buffer.withUnsafeMutableBytes { raw in
            while true {
                if InputCancellation.isRequested { return -2 }
                if mayBlock {
                    var wait = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    // A tenth of a second between looks at the cancellation flag.
                    if poll(&wait, 1, 100) == 0 { continue }
                }
                #if canImport(Glibc)
                let n = Glibc.read(fd, raw.baseAddress! + offset, limit)
                #else
                let n = Darwin.read(fd, raw.baseAddress! + offset, limit)
                #endif
                if n >= 0 { return n }
                // EAGAIN: a FIFO opened without blocking, with nothing to read yet.
                if errno != EINTR && errno != EAGAIN { return n }
            }
        }
        if outcome == -2 { throw InputCancellation.error(reading: name) }
        guard outcome >= 0 else {
            throw TimelineError(file: name, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        return outcome
    }

    /// The whole input (for JSON documents, which are parsed as one value), at most
    /// `limits.maxDocumentBytes` of it.
    public func readAll() throws(TimelineError) -> [UInt8] { try readAll(after: []) }

    /// `prefix`, bytes of this input already read, followed by the rest of it: the whole
    /// document, within the same limit.
    package func readAll(after prefix: [UInt8]) throws(TimelineError) -> [UInt8] {
        var bytes = prefix
        guard bytes.count <= limits.maxDocumentBytes else { throw documentTooLong }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try read(into: &chunk, from: 0)
            if n == 0 { return bytes }
            guard bytes.count + n <= limits.maxDocumentBytes else { throw documentTooLong }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// The error for a JSON document past `limits.maxDocumentBytes`.
    package var documentTooLong: TimelineError {
        TimelineError(
            file: name,
            message:
                "longer than the limit of \(limits.maxDocumentBytes) bytes for a JSON document (--max-document-bytes)")
    }
}
