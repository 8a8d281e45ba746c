import AVTOutput
import AVTReplay

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One directory listing as `check` pairs it: the timelines (what `run` would replay from the
/// folder), the golden files (`*.expected.jsonl`) and the other files, with the golden files
/// claimed so far. A timeline's golden file is beside it, so a listing is paired on its own.
struct DirectoryPlan {
    let directory: String
    /// The directory with every symlink resolved: a file's real path without asking the system.
    let realDirectory: String
    private(set) var timelines: [FolderWalk.File] = []
    private(set) var others: [FolderWalk.File] = []
    /// The golden files, by name.
    private(set) var goldens: [String: FolderWalk.File] = [:]
    /// Golden file names a timeline of this listing (or one given before) goes with.
    var claimed: Set<String> = []
    /// Golden file name → the timeline that claimed it, to refuse a second.
    var owners: [String: String] = [:]

    init(directory: String, files: [FolderWalk.File]) {
        self.directory = directory
        self.realDirectory = FileIdentity.realPath(directory) ?? directory
        for file in files {
            if file.name.hasSuffix(".expected.jsonl") {
                goldens[file.name] = file
            } else if Self.takes(file.path, name: file.name) {
                timelines.append(file)
            } else {
                others.append(file)
            }
        }
    }

    func path(of name: String) -> String { directory == "/" ? "/" + name : directory + "/" + name }

    func realPath(of name: String) -> String { realDirectory == "/" ? "/" + name : realDirectory + "/" + name }

    /// Whether a folder walk takes the file for a timeline, as `run` does.
    static func takes(_ path: String, name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        return SessionDiscovery.isTimelineFile(name) && !SessionDiscovery.isOutputFile(path)
            || SessionDiscovery.isPlayerLogFile(path, name: name)
    }

    /// The timeline beside a golden file (by real path) that goes with it, if any.
    static func claimant(ofGolden real: String) -> String? {
        let suffix = ".expected.jsonl"
        guard real.hasSuffix(suffix), let slash = real.lastIndex(of: "/") else { return nil }
        let stem = String(real.dropLast(suffix.count))
        for candidate in [".ndjson", ".jsonl", ".json", ".csv", ""].map({ stem + $0 }) {
            let name = String(candidate[candidate.index(after: slash)...])
            var info = stat()
            guard stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, takes(candidate, name: name),
                GoldenFiles.expectedPath(for: candidate) == real
            else { continue }
            return candidate
        }
        return nil
    }
}
