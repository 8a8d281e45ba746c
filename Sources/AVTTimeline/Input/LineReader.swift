import AVTJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        // A small file gets a buffer its size (grown like any buffer if it grew meanwhile).
        let size = input.sizeHint.map { Swift.max($0 + 1, 1 << 12) } ?? chunkSize
        self.buffer = [UInt8](repeating: 0, count: Swift.min(chunkSize, size))
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
                // A chunk of noise can take a while to go through line by line: a stop is heard
                // at the next line, not only at the next read.
                if InputCancellation.isRequested { throw InputCancellation.error(reading: input.name) }
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
    /// and reads more. A line past `limits.maxLineBytes` is an error: without one, an input
    /// with no line feed (`/dev/zero`) would grow the buffer until memory ran out.
    private mutating func refill() throws(TimelineError) {
        guard end - start < input.limits.maxLineBytes else {
            throw TimelineError(
                file: input.name, location: SourceLocation(line: lineNumber + 1, column: 1),
                message: "a line longer than the limit of \(input.limits.maxLineBytes) bytes (--max-line-bytes)")
        }
        if start > 0 {
            // Moved in place: `replaceSubrange` with a slice of the buffer itself copied the
            // whole buffer (the slice shares it) on every refill.
            let (from, count) = (start, end - start)
            buffer.withUnsafeMutableBufferPointer { all in
                guard let base = all.baseAddress, count > 0 else { return }
                memmove(base, base + from, count)
            }
            end = count
            start = 0
        }
        if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let n = try input.read(into: &buffer, from: end)
        if n == 0 { atEOF = true } else { end += n }
    }
}
