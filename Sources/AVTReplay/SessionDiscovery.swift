import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the paths given to `run` into the list of sessions to replay: files as given,
/// directories expanded recursively to their timelines (`.json`, `.jsonl`, `.ndjson`, `.csv`,
/// but not golden `*.expected.jsonl` files, nor hidden entries), sorted by path for a
/// deterministic order on every machine.
package enum SessionDiscovery {
    package static func expand(_ paths: [String]) throws(TimelineError) -> [String] {
        var sessions: [String] = []
        for path in paths {
            if path != "-", isDirectory(path) {
                var found: [String] = []
                try walk(path.hasSuffix("/") ? String(path.dropLast()) : path, into: &found)
                sessions.append(contentsOf: found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            } else {
                sessions.append(path)
            }
        }
        return sessions
    }

    /// Whether records carry their session's path: with several inputs, or a directory, a
    /// record alone would not say which session it came from.
    package static func labelsSessions(inputs: [String], sessions: [String]) -> Bool {
        inputs.count > 1 || sessions != inputs
    }

    package static func isTimelineFile(_ name: String) -> Bool {
        !name.hasPrefix(".") && !name.hasSuffix(".expected.jsonl") && TimelineFormat.fromExtension(of: name) != nil
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func walk(_ directory: String, into found: inout [String]) throws(TimelineError) {
        guard let handle = opendir(directory) else {
            throw TimelineError(file: directory, message: "cannot read directory: \(String(cString: strerror(errno)))")
        }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            let path = directory + "/" + name
            if isDirectory(path) {
                try walk(path, into: &found)
            } else if isTimelineFile(name) {
                found.append(path)
            }
        }
    }
}
