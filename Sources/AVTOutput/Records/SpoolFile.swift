import AVTCore
import AVTJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file that is unlinked as soon as it is created: nothing is left behind, whatever
/// happens to the process. In `$TMPDIR`, else `/tmp`, or in a directory given (beside the file a
/// report will replace, so the spool and the report share a file system).
package final class SpoolFile {
    private let fd: Int32
    private let sink: FileDescriptorSink
    let name: String

    package init(directory given: String? = nil) throws(OutputError) {
        var directory = given ?? getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if directory.isEmpty { directory = "/tmp" }
        if directory.hasSuffix("/") { directory.removeLast() }
        var template = Array((directory + "/avtreplay-spool-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw OutputError(
                path: directory, message: "cannot create a temporary file: \(String(cString: strerror(errno)))",
                isBrokenPipe: false)
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unlink(path)
        self.fd = fd
        self.name = path
        self.sink = FileDescriptorSink(fd: fd, name: path)
    }

    deinit { close(fd) }

    package func write(_ bytes: [UInt8]) throws(OutputError) { try sink.write(bytes) }

    /// Everything written so far, appended to `output` in 1 MiB pieces.
    package func copy(to output: ByteSink) throws(OutputError) {
        try rewind()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try read(into: &buffer, from: 0)
            if n == 0 { return }
            try buffer.withUnsafeBufferPointer { (bytes) throws(OutputError) in
                try output.write(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<n]))
            }
        }
    }

    func rewind() throws(OutputError) {
        guard lseek(fd, 0, SEEK_SET) == 0 else {
            throw OutputError(path: name, code: errno)
        }
    }

    /// `count` bytes from `position` in the file (fewer at its end), whatever the current offset.
    func read(_ count: Int, at position: Int) throws(OutputError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let fd = self.fd
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + done, count - done, off_t(position + done))
            }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw OutputError(path: name, code: errno) }
            if n == 0 { break }
            done += n
        }
        return done == count ? buffer : Array(buffer[0..<done])
    }

    /// Reads into `buffer` from `offset` to its end; 0 at the end of the file.
    func read(into buffer: inout [UInt8], from offset: Int) throws(OutputError) -> Int {
        let fd = self.fd
        let n: Int = buffer.withUnsafeMutableBytes { raw in
            while true {
                #if canImport(Glibc)
                let n = Glibc.read(fd, raw.baseAddress! + offset, raw.count - offset)
                #else
                let n = Darwin.read(fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if n >= 0 || errno != EINTR { return n }
            }
        }
        guard n >= 0 else {
            throw OutputError(path: name, code: errno)
        }
        return n
    }

    /// Fills `buffer` with the bytes written at `offset`; a short file is an error.
    package func read(into buffer: inout [UInt8], at offset: Int) throws(OutputError) {
        let fd = self.fd
        var done = 0
        while done < buffer.count {
            let n: Int = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw OutputError(path: name, code: n < 0 ? errno : EIO)
            }
            done += n
        }
    }
}
