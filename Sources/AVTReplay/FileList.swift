import AVTJSON
import AVTTimeline

/// A list of inputs, one path per line (`--files-from`), as a scheduler hands a worker its share
/// of a corpus. Paths are taken as written (relative to the current directory, like arguments),
/// and each session is named by its path as written. Blank lines are skipped; a line that cannot
/// be a path (a NUL byte) is bad input with its line.
package enum FileList {
    package static func read(_ path: String) throws(TimelineError) -> [String] {
        var lines = LineReader(try ByteInput(path: path))
        var paths: [String] = []
        while let entry = try lines.nextLine({ (bytes, number) in (Array(bytes), number) }) {
            var (bytes, number) = entry
            while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0D { bytes.removeLast() }
            if bytes.isEmpty { continue }
            guard !bytes.contains(0) else {
                throw TimelineError(
                    file: path == "-" ? "<stdin>" : path, location: SourceLocation(line: number, column: 1),
                    message: "a NUL byte in a listed path: expected one path per line")
            }
            paths.append(String(decoding: bytes, as: UTF8.self))
        }
        return paths
    }
}
