import AVTJSON
import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the paths given to `run` into the list of sessions to replay: files as given,
/// directories expanded recursively to their timelines (`.json`, `.jsonl`, `.ndjson`, `.csv`,
/// and `.log` / `.txt` files that are player logs; not golden `*.expected.jsonl` files, nor
/// hidden entries), sorted by path for a
/// deterministic order on every machine. In a directory, a `.jsonl`/`.ndjson` file whose first
/// record has `"type"` is output (`run`'s records, a golden file), not a timeline, so a
/// `golden/` folder inside a timelines folder is left alone. A directory with no timeline in it
/// is an error: a CI job pointed at the wrong folder must not pass by checking nothing.
package enum SessionDiscovery {
    /// When a directory's output files (event logs) are listed too.
    package enum Outputs: Sendable {
        /// Timelines only (`run`, `check`, `kpi`).
        case never
        /// Event logs as well (`kpi --from-events`, `report --from-events`).
        case always
        /// Event logs in a directory without timelines (`report`): a folder of logs is read,
        /// a golden folder beside the timelines is not read twice.
        case whenNoTimelines
    }

    /// With a `shard`, only its sessions: a file of another shard is not opened at all (its name
    /// decides, see `Shard`), so N machines read each file once between them.
    package static func expand(_ paths: [String], keepOutputs: Outputs = .never, shard: Shard? = nil)
        throws(TimelineError) -> [String]
    {
        var sessions: [String] = []
        for path in paths {
            if path != "-", isDirectory(path) {
                let directory = path.hasSuffix("/") ? String(path.dropLast()) : path
                let all = try FolderWalk.files(under: directory)
                let files =
                    shard.map { shard in all.filter { shard.contains(Shard.name(of: $0, in: directory)) } } ?? all
                var found = timelines(in: files, keepOutputs: keepOutputs == .always)
                if found.isEmpty, keepOutputs == .whenNoTimelines {
                    found = timelines(in: files, keepOutputs: true)
                }
                // Another shard's files may be the timelines: judged by their names alone.
                if found.isEmpty,
                    shard == nil || !all.contains(where: { isTimelineFile(fileName($0)) || isLogName(fileName($0)) })
                {
                    throw TimelineError(
                        file: path,
                        message: keepOutputs == .never
                            ? "no timelines in this directory (.json, .jsonl, .ndjson, .csv; not *.expected.jsonl or output records)"
                            : "no timelines or event logs in this directory")
                }
                sessions.append(contentsOf: found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            } else if shard.map({ $0.contains(Shard.name(of: path, in: nil)) }) ?? true {
                sessions.append(path)
            }
        }
        return sessions
    }

    /// Whether records carry their session's name: with several inputs, a directory or a shard,
    /// a record alone would not say which session it came from (and a shard's records are
    /// joined with other shards').
    package static func labelsSessions(inputs: [String], sessions: [String], sharded: Bool = false) -> Bool {
        sharded || inputs.count > 1 || sessions != inputs
    }

    /// A session's stable name: its path relative to the directory among `inputs` it was found
    /// in, else the path as given without `./` (as `Shard` names it), so a corpus replayed from
    /// another directory names its sessions alike.
    package static func name(of session: String, inputs: [String]) -> String {
        for input in inputs where input != "-" && session != input {
            let directory = input.hasSuffix("/") ? String(input.dropLast()) : input
            if session.hasPrefix(directory + "/"), isDirectory(input) { return Shard.name(of: session, in: directory) }
        }
        return Shard.name(of: session, in: nil)
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// A `.log` or `.txt` name: a player log, perhaps, by its content.
    private static func isLogName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return !name.hasPrefix(".") && (lower.hasSuffix(".log") || lower.hasSuffix(".txt"))
    }

    package static func isTimelineFile(_ name: String) -> Bool {
        !name.hasPrefix(".") && !name.hasSuffix(".expected.jsonl") && TimelineFormat.fromExtension(of: name) != nil
    }

    /// Whether a JSON Lines file holds output records: its first non-blank line is an object
    /// with a `"type"` member (timeline lines never have one).
    package static func isOutputFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        guard lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson"),
            let head = try? ByteInput(path: path).peek(1 << 16)
        else { return false }
        guard let line = FirstLine.nonBlank(head[...]),
            let node = try? JSONParser.parse(Array(line)), case .object(let members) = node.value
        else { return false }
        return members.contains { $0.key == "type" }
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func timelines(in files: [String], keepOutputs: Bool) -> [String] {
        files.filter { path in
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return isTimelineFile(name) && (keepOutputs || !isOutputFile(path)) || isPlayerLogFile(path, name: name)
        }
    }

    /// A `.log` or `.txt` file whose content is a player's log (ExoPlayer, Chrome, AVPlayer): the
    /// logs users already have replay from a folder too; other text files there are left alone.
    package static func isPlayerLogFile(_ path: String, name: String) -> Bool {
        let lower = name.lowercased()
        guard !name.hasPrefix("."), lower.hasSuffix(".log") || lower.hasSuffix(".txt"),
            let head = try? ByteInput(path: path).peek(1 << 16)
        else { return false }
        return TimelineFormat.sniff(head).isPlayerLog
    }
}
