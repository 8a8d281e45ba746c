import AVTJSON
import AVTOutput
import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `--dead-letter` may add records: a file that does not exist yet, or one that already
/// holds dead letters. The file is appended to, so a path that happens to name something else
/// (a checkout's symlink to a shell profile, a report) would get JSON lines at its end; and a
/// path that is also the run's output would lose the dead letters in the output's rename.
package enum DeadLetterTarget {
    /// Throws (exit 2 at the command line) unless `path` may take dead letters beside `outputs`.
    package static func check(_ path: String, outputs: [String]) throws(OutputError) {
        if let output = outputs.first(where: { $0 != "-" && samePlace($0, path) }) {
            throw OutputError(
                path: path, message: "it is also an output (\(output)); the dead letters would be lost in it")
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw OutputError(path: path, message: "not a regular file; a dead-letter file is JSON Lines")
        }
        guard let head = try? ByteInput(path: path).peek(1 << 16) else { return }
        guard let line = firstLine(head), !isEntry(line) else { return }
        throw OutputError(
            path: path,
            message: "exists and is not a dead-letter file (its first line is no {\"to\",\"format\",\"line\"} "
                + "entry); records are only added to a dead-letter file")
    }

    /// The first non-blank line (possibly cut at the peek's end); nil for an empty file.
    private static func firstLine(_ head: [UInt8]) -> ArraySlice<UInt8>? {
        for line in head.split(separator: 0x0A, omittingEmptySubsequences: true)
        where line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
            return line
        }
        return nil
    }

    private static func isEntry(_ line: ArraySlice<UInt8>) -> Bool {
        guard let node = try? JSONParser.parse(Array(line)), case .object(let members) = node.value else {
            return false
        }
        let keys = Set(members.map(\.key))
        return keys.isSuperset(of: ["to", "format", "line"])
    }

    /// Whether two paths name one file, also when neither exists yet (same folder, same name).
    static func samePlace(_ a: String, _ b: String) -> Bool {
        if let first = FileIdentity(path: a), let second = FileIdentity(path: b) { return first == second }
        return normalized(a) == normalized(b)
    }

    private static func normalized(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return (FileIdentity.realPath(folder.isEmpty ? "/" : folder) ?? folder) + "/" + name
    }
}
