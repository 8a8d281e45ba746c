#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A readable file or stdin (`-`), read in large chunks so inputs of any length stream through a
/// fixed amount of memory.
public final class ByteInput {
    public let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// Bytes already read by `peek` and not yet consumed.
    private var pending: [UInt8] = []

    /// Opens a path, or standard input for `-`.
    public init(path: String) throws(TimelineError) {
        if path == "-" {
            name = "<stdin>"
            fd = 0
            ownsDescriptor = false
        } else {
            name = path
            fd = open(path, O_RDONLY)
            ownsDescriptor = true
            guard fd >= 0 else { throw TimelineError(file: path, message: "cannot read: \(String(cString: strerror(errno)))") }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw TimelineError(file: path, message: "is a directory, not a timeline")
            }
        }
    }

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
        var chunk = [UInt8](repeating: 0, count: count)
        while fd >= 0, pending.count < count {
            let n = try readDescriptor(into: &chunk, from: 0, limit: count - pending.count)
            if n == 0 { break }
            pending.append(contentsOf: chunk[0..<n])
        }
        return Array(pending.prefix(count))
    }

    /// Reads into `buffer` from `offset` to its end; returns the count, 0 at end of input.
    package func read(into buffer: inout [UInt8], from offset: Int) throws(TimelineError) -> Int {
        guard pending.isEmpty else {
            let n = min(pending.count, buffer.count - offset)
            buffer.replaceSubrange(offset..<(offset + n), with: pending[0..<n])
            pending.removeFirst(n)
            return n
        }
        guard fd >= 0 else { return 0 }
        return try readDescriptor(into: &buffer, from: offset, limit: buffer.count - offset)
    }

    private func readDescriptor(into buffer: inout [UInt8], from offset: Int, limit: Int) throws(TimelineError) -> Int {
        let fd = self.fd
        let outcome: Int = buffer.withUnsafeMutableBytes { raw in
            while true {
                #if canImport(Glibc)
                let n = Glibc.read(fd, raw.baseAddress! + offset, limit)
                #else
                let n = Darwin.read(fd, raw.baseAddress! + offset, limit)
                #endif
                if n >= 0 || errno != EINTR { return n }
            }
        }
        guard outcome >= 0 else {
            throw TimelineError(file: name, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        return outcome
    }

    /// The whole input (for JSON documents, which are parsed as one value).
    public func readAll() throws(TimelineError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try read(into: &chunk, from: 0)
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}

/// Splits a `ByteInput` into lines (without the `\n`, and without a `\r` before it), numbering
/// them from 1. The buffer holds one chunk plus the current line, whatever the input's length.
package struct LineReader {
    private let input: ByteInput
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    package private(set) var lineNumber = 0

    package init(_ input: ByteInput, chunkSize: Int = 1 << 18) {
        self.input = input
        self.buffer = [UInt8](repeating: 0, count: chunkSize)
    }

    /// Calls `body` with the next line's bytes; returns false at the end of input.
    package mutating func nextLine<R>(_ body: (UnsafeBufferPointer<UInt8>, Int) throws(TimelineError) -> R)
        throws(TimelineError) -> R?
    {
        while true {
            if let newline = newlineIndex() {
                let lineStart = start
                var lineEnd = newline
                if lineEnd > lineStart, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                start = newline + 1
                lineNumber += 1
                return try withLine(lineStart..<lineEnd, body)
            }
            if atEOF {
                guard start < end else { return nil }
                let range = start..<end
                start = end
                lineNumber += 1
                return try withLine(range, body)
            }
            try refill()
        }
    }

    /// The next `\n` in `start..<end`: memchr, where the generic slice search cost ~7
    /// instructions per byte of input.
    private func newlineIndex() -> Int? {
        guard start < end else { return nil }
        return buffer.withUnsafeBufferPointer { all -> Int? in
            let base = all.baseAddress!
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func withLine<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>, Int) throws(TimelineError) -> R)
        throws(TimelineError) -> R
    {
        let number = lineNumber
        return try buffer.withUnsafeBufferPointer { (all) throws(TimelineError) -> R in
            try body(UnsafeBufferPointer(rebasing: all[range]), number)
        }
    }

    /// Moves the partial line to the front (growing the buffer only for a line longer than it)
    /// and reads more.
    private mutating func refill() throws(TimelineError) {
        if start > 0 {
            buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
            end -= start
            start = 0
        }
        if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        let n = try input.read(into: &buffer, from: end)
        if n == 0 { atEOF = true } else { end += n }
    }
}
