import AVTReplay

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole input file, or stdin for `-`, as bytes.
enum InputFile {
    static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        guard fd >= 0 else { throw .badInput("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw .badInput("cannot read \(displayName(path)): \(String(cString: strerror(errno)))")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// How a path is named in messages.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}
