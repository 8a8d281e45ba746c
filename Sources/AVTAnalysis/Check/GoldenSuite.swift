import AVTOutput
import AVTReplay
import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `check` works through: each timeline with the golden file it is compared with, the
/// timelines that have none, and the golden files no timeline claims. Built so that a verdict
/// never rests on a guess: two timelines sharing one golden file, or `--expect` meant for one
/// timeline given several, are refused before anything runs.
package struct GoldenSuite: Sendable, Equatable {
    package enum Item: Sendable, Equatable {
        /// A timeline and its expected output (which may not exist yet when updating).
        case timeline(String, expected: String)
        /// A timeline in a directory without an expected output.
        case skipped(String, expected: String)
        /// A `*.expected.jsonl` file in a directory without its timeline.
        case orphaned(String)

        /// Every file the item reads (or, updating, writes).
        package var paths: [String] {
            switch self {
            case .timeline(let path, let expected), .skipped(let path, let expected): [path, expected]
            case .orphaned(let path): [path]
            }
        }

        /// The path the order and `--shard` go by.
        package var path: String {
            switch self {
            case .timeline(let path, _), .skipped(let path, _), .orphaned(let path): path
            }
        }
    }

    /// In the order `run` would take the inputs: arguments as given, directories sorted by path.
    package var items: [Item] = []

    /// Nothing to check.
    package init() {}

    /// `update` lists every timeline as a `.timeline` (to create the missing golden files).
    package init(_ paths: [String], expect: String? = nil, update: Bool = false) throws(TimelineError) {
        if let expect, SessionDiscovery.isDirectory(expect) {
            throw TimelineError(
                file: expect,
                message: "--expect names one expected output file, not a directory (a directory of "
                    + "timelines finds NAME.expected.jsonl beside each)")
        }
        var seen = Set<String>()
        var orphans: [String] = []
        var others: [String] = []
        for path in paths {
            let isDirectory = path != "-" && SessionDiscovery.isDirectory(path)
            for timeline in try SessionDiscovery.expand([path]) where seen.insert(Self.identity(timeline)).inserted {
                let expected = expect ?? GoldenFiles.expectedPath(for: timeline)
                if expect == nil {
                    let folder = GoldenPlacement.folder(of: timeline, argument: path, isDirectory: isDirectory)
                    try GoldenPlacement.check(expected, inside: folder)
                }
                let known = !isDirectory || update || expect != nil || SessionDiscovery.exists(expected)
                items.append(known ? .timeline(timeline, expected: expected) : .skipped(timeline, expected: expected))
            }
            if isDirectory {
                let files = Self.files(in: path)
                orphans += files.filter { $0.hasSuffix(".expected.jsonl") }
                others += files.filter { !$0.hasSuffix(".expected.jsonl") }
            }
        }
        if expect != nil, items.count != 1 {
            throw TimelineError(
                file: expect ?? "", message: "--expect goes with exactly one timeline; got \(items.count)")
        }
        try checkCollisions()
        let claimed = Set(
            items.compactMap { item -> String? in
                switch item {
                case .timeline(_, let expected), .skipped(_, let expected): Self.identity(expected)
                case .orphaned: nil
                }
            })
        // A file the folder scan passed over but whose golden file is beside it was a timeline
        // (a `logcat.txt` overwritten by a failed capture): it is checked, and its reader says
        // why it is not one, rather than the case vanishing and its golden file turning orphan.
        var formerTimeline: [String: String] = [:]
        for file in others where !seen.contains(Self.identity(file)) {
            formerTimeline[Self.identity(GoldenFiles.expectedPath(for: file))] = file
        }
        for golden in orphans
        where !claimed.contains(Self.identity(golden)) && seen.insert(Self.identity(golden)).inserted {
            if let file = formerTimeline[Self.identity(golden)], seen.insert(Self.identity(file)).inserted {
                items.append(.timeline(file, expected: golden))
            } else {
                items.append(.orphaned(golden))
            }
        }
    }

    /// Two timelines with one golden file (`s.json` and `s.csv`) would overwrite each other's
    /// expected output; that is refused rather than resolved by a naming rule nobody remembers.
    private func checkCollisions() throws(TimelineError) {
        var owner: [String: String] = [:]
        for item in items {
            switch item {
            case .timeline(let timeline, let expected), .skipped(let timeline, let expected):
                try claim(expected, by: timeline, in: &owner)
            case .orphaned: continue
            }
        }
    }

    private func claim(_ expected: String, by timeline: String, in owner: inout [String: String]) throws(TimelineError)
    {
        let key = Self.identity(expected)
        // `--expect t.jsonl` for `t.jsonl`: an update would write the timeline over itself.
        if key == Self.identity(timeline) {
            throw TimelineError(file: expected, message: "the expected output is the timeline itself")
        }
        if let other = owner[key] {
            throw TimelineError(
                file: expected, message: "\(other) and \(timeline) would share this expected output; rename one of them"
            )
        }
        owner[key] = timeline
    }

    /// The files in a directory tree, sorted by path.
    private static func files(in directory: String) -> [String] {
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        // The timeline walk of the same folder has already warned about what it skipped.
        let files = (try? FolderWalk.files(under: root, warn: { _ in })) ?? []
        return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// One key per file however it was named (`./a/s.json`, `a/s.json`, a symlink to it).
    private static func identity(_ path: String) -> String {
        path == "-" ? path : FileIdentity.realPath(path) ?? path
    }
}
