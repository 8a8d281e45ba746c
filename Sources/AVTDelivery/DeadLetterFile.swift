import AVTOutput
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A dead-letter file that is only ever added to. Records kept by an earlier run stay (a shell
/// loop over sessions, or a run after a failed one, must not wipe them), and runs that write the
/// same file at once (`--jobs`, parallel shells) never interleave partial lines: each call
/// appends whole lines with `O_APPEND` under an exclusive `flock`, in one loop of writes.
final class DeadLetterFile {
    let path: String
    private var fd: Int32 = -1
    /// Non-blank lines the file held when this run first wrote to it.
    private(set) var heldBefore = 0

    init(path: String) { self.path = path }

    deinit { if fd >= 0 { _ = Glibc.close(fd) } }

    /// Appends `bytes` (whole lines). The file is opened, and its existing records counted, on
    /// the first call, so a run that delivers everything never creates it.
    func append(_ bytes: [UInt8]) throws(OutputError) {
        if fd < 0 {
            let opened = open(path, O_RDWR | O_APPEND | O_CREAT, 0o644)
            guard opened >= 0 else { throw failure() }
            fd = opened
            try locked { () throws(OutputError) in
                let (lines, endsWithNewline) = try count()
                heldBefore = lines
                // A line cut short by a crash gets its end, so the first new record is not glued to it.
                if !endsWithNewline { try write([0x0A]) }
            }
        }
        try locked { () throws(OutputError) in try write(bytes) }
    }

    private func locked(_ body: () throws(OutputError) -> Void) throws(OutputError) {
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure() }
        }
        defer { flock(fd, LOCK_UN) }
        try body()
    }

    private func write(_ bytes: [UInt8]) throws(OutputError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + sent, $0.count - sent) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            sent += n
        }
    }

    /// Non-blank lines already in the file, and whether it is empty or ends with a newline.
    private func count() throws(OutputError) -> (Int, Bool) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        var lines = 0
        var blank = true
        var last: UInt8 = 0x0A
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            if n == 0 { break }
            for byte in chunk[0..<n] {
                if byte == 0x0A {
                    if !blank { lines += 1 }
                    blank = true
                } else if byte != 0x20, byte != 0x0D, byte != 0x09 {
                    blank = false
                }
            }
            last = chunk[n - 1]
            offset += off_t(n)
        }
        if !blank { lines += 1 }
        return (lines, last == 0x0A)
    }

    func close() throws(OutputError) {
        guard fd >= 0 else { return }
        let result = Glibc.close(fd)
        fd = -1
        if result != 0 { throw failure() }
    }

    private func failure() -> OutputError { OutputError(path: path, message: String(cString: strerror(errno))) }
}
