import AVTOutput
import AVTReplay
import AVTTimeline

/// What `check` works through: each timeline with the golden file it is compared with, the
/// timelines that have none, and the golden files no timeline claims. Built so that a verdict
/// never rests on a guess: two timelines sharing one golden file, or `--expect` meant for one
/// timeline given several, are refused before anything runs.
///
/// The suite is not held: it is walked once when made (to refuse what must be refused and to
/// count it), then again, a directory listing at a time, as its cases run (`makeCursor`). A
/// check of 100,000 cases keeps the listings of the directories being walked, not 100,000 paths.
package struct GoldenSuite: Sendable {
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

    let paths: [String]
    let expect: String?
    let update: Bool
    /// `--shard K/N`: the items whose name (the path relative to the folder given) hashes to K.
    let shard: Shard?
    /// How many items the suite gives (this shard's share).
    package private(set) var count = 0

    /// Nothing to check.
    package init() {
        (paths, expect, update, shard) = ([], nil, false, nil)
    }

    /// Arguments as given, directories walked in path order (the order `run` takes them), each
    /// golden file without a timeline where its path falls. `update` lists every timeline as a
    /// `.timeline` (to create the missing golden files). An existing file among `outputs` that
    /// the suite reads is refused: writing it would destroy what is read. What a folder walk
    /// skips (a FIFO, a symlink out of the folder) goes to `warn`, once.
    package init(
        _ paths: [String], expect: String? = nil, update: Bool = false, shard: Shard? = nil, outputs: [String] = [],
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(TimelineError) {
        if let expect, SessionDiscovery.isDirectory(expect) {
            throw TimelineError(
                file: expect,
                message: "--expect names one expected output file, not a directory (a directory of "
                    + "timelines finds NAME.expected.jsonl beside each)")
        }
        (self.paths, self.expect, self.update, self.shard) = (paths, expect, update, shard)
        let written = outputs.compactMap { output in FileIdentity(path: output).map { (output, $0) } }
        var cursor = Cursor(self, warn: warn)
        var selected = 0
        while let item = try cursor.next() {
            selected += 1
            for path in item.paths where !written.isEmpty {
                guard let identity = FileIdentity(path: path), let output = written.first(where: { $0.1 == identity })
                else { continue }
                throw TimelineError(
                    file: output.0, message: "it is also an input (writing it would destroy what is read)")
            }
        }
        if expect != nil, cursor.timelinesGiven != 1 {
            throw TimelineError(
                file: expect ?? "", message: "--expect goes with exactly one timeline; got \(cursor.timelinesGiven)")
        }
        count = selected
    }

    /// The items again, one at a time. The walk already warned about what it skipped.
    package func makeCursor() -> Cursor { Cursor(self, warn: { _ in }) }

    /// Every item, held at once: for small suites and tests. (The files changed since the suite
    /// was made if this falls short of `count`.)
    package var items: [Item] {
        var cursor = makeCursor()
        var items: [Item] = []
        while let item = try? cursor.next() { items.append(item) }
        return items
    }

    /// Walks the suite: file arguments as they come, directories a listing at a time, each
    /// listing planned whole (which golden file goes with which timeline) before its files are
    /// given in path order.
    package struct Cursor {
        private let suite: GoldenSuite
        private let warn: @Sendable (String) -> Void
        private var argument = 0
        private var walk: FolderWalk?
        /// The directory argument being walked, and how many timelines it has shown.
        private var folder = ""
        private var found = 0
        /// Directories already walked: a folder given twice, or inside another given, is walked once.
        private var visited: Set<FileIdentity> = []
        /// The items of the listings being walked, by the path whose turn gives them.
        private var placed: [String: Item] = [:]
        private var claims = GoldenClaims()
        /// Items of the whole suite given so far, before the shard's selection, and how many of
        /// them were timelines.
        private(set) var position = 0
        private(set) var timelinesGiven = 0

        init(_ suite: GoldenSuite, warn: @escaping @Sendable (String) -> Void) {
            self.suite = suite
            self.warn = warn
        }

        /// The next item of this shard; nil at the end.
        package mutating func next() throws(TimelineError) -> Item? {
            while let item = try nextOfAll() {
                position += 1
                // An item of a walk is named relative to the folder walked (the walk is still on).
                let name = Shard.name(of: item.path, in: walk == nil ? nil : folder)
                guard let shard = suite.shard, !shard.contains(name) else { return item }
            }
            return nil
        }

        private mutating func nextOfAll() throws(TimelineError) -> Item? {
            while true {
                if var current = walk {
                    let event = try current.next()
                    walk = current
                    switch event {
                    case .directory(let directory, let files):
                        try plan(directory, files: files)
                    case .file(let file):
                        if let item = placed.removeValue(forKey: file.path) { return item }
                    case nil:
                        try finishWalk(current)
                    }
                    continue
                }
                guard suite.paths.indices.contains(argument) else { return nil }
                let path = suite.paths[argument]
                argument += 1
                if path != "-", SessionDiscovery.isDirectory(path) {
                    (folder, found) = (path, 0)
                    walk = FolderWalk(under: path, visited: visited, warn: warn)
                } else if let item = try given(path) {
                    return item
                }
            }
        }

        private mutating func finishWalk(_ finished: FolderWalk) throws(TimelineError) {
            let again = FileIdentity(path: folder).map(visited.contains) ?? false
            visited = finished.visited
            walk = nil
            // A CI job pointed at the wrong folder must not pass by checking nothing.
            if found == 0, !again {
                throw TimelineError(
                    file: folder,
                    message:
                        "no timelines in this directory (.json, .jsonl, .ndjson, .csv; not *.expected.jsonl or output records)"
                )
            }
        }

        /// A timeline given as a file (or `-`): its golden file is beside it, or `--expect`.
        private mutating func given(_ path: String) throws(TimelineError) -> Item? {
            let real = path == "-" ? path : FileIdentity.realPath(path) ?? path
            if claims.hasTimeline(real) || isWalked(real) { return nil }
            claims.addTimeline(real)
            timelinesGiven += 1
            let expected = suite.expect ?? GoldenFiles.expectedPath(for: path)
            if suite.expect == nil {
                try GoldenPlacement.check(
                    expected, inside: GoldenPlacement.folder(of: path, argument: path, isDirectory: false))
            }
            let realExpected = FileIdentity.realPath(expected) ?? expected
            // `--expect t.jsonl` for `t.jsonl`: an update would write the timeline over itself.
            if realExpected == real {
                throw TimelineError(file: expected, message: "the expected output is the timeline itself")
            }
            try claims.claim(realExpected, by: path, shown: expected)
            return .timeline(path, expected: expected)
        }

        /// Whether a walk already gave (or is giving) this file: its directory was entered and the
        /// walk takes it for a timeline.
        private func isWalked(_ real: String) -> Bool {
            guard let slash = real.lastIndex(of: "/"), let directory = FileIdentity(path: String(real[..<slash])) else {
                return false
            }
            let entered = (walk?.visited ?? visited).contains(directory)
            return entered && DirectoryPlan.takes(real, name: String(real[real.index(after: slash)...]))
        }

        /// Decides each file of a listing: timeline, skipped, orphaned golden file, or nothing.
        private mutating func plan(_ directory: String, files: [FolderWalk.File]) throws(TimelineError) {
            var listing = DirectoryPlan(directory: directory, files: files)
            found += listing.timelines.count
            for file in listing.timelines {
                if file.isLink {
                    let real = FileIdentity.realPath(file.path) ?? file.path
                    if claims.hasTimeline(real) || isWalked(real) { continue }
                    claims.addTimeline(real)
                } else if claims.hasTimeline(listing.realPath(of: file.name)) {
                    // Given as a file argument before: its golden file is taken.
                    listing.claimed.insert(GoldenFiles.expectedPath(for: file.name))
                    continue
                }
                let item = try timelineItem(file, in: &listing)
                placed[file.path] = item
            }
            // A file the folder scan passed over but whose golden file is beside it was a timeline
            // (a `logcat.txt` overwritten by a failed capture): it is checked, and its reader says
            // why it is not one, rather than the case vanishing and its golden file turning orphan.
            for file in listing.others {
                let golden = GoldenFiles.expectedPath(for: file.name)
                guard listing.goldens[golden] != nil, !listing.claimed.contains(golden),
                    !claims.hasGolden(listing.realPath(of: golden))
                else { continue }
                listing.claimed.insert(golden)
                placed[file.path] = .timeline(file.path, expected: listing.path(of: golden))
            }
            for (name, golden) in listing.goldens
            where !listing.claimed.contains(name) && !claims.hasGolden(listing.realPath(of: name)) {
                placed[golden.path] = .orphaned(golden.path)
            }
        }

        private mutating func timelineItem(_ file: FolderWalk.File, in listing: inout DirectoryPlan)
            throws(TimelineError)
            -> Item
        {
            timelinesGiven += 1
            // More than one such timeline is refused once the suite is counted.
            if let expect = suite.expect { return .timeline(file.path, expected: expect) }
            let name = GoldenFiles.expectedPath(for: file.name)
            let expected = listing.path(of: name)
            let golden = listing.goldens[name]
            if let owner = listing.owners[name] {
                throw TimelineError(
                    file: expected,
                    message: "\(owner) and \(file.path) would share this expected output; rename one of them")
            }
            listing.owners[name] = file.path
            listing.claimed.insert(name)
            if golden?.isLink != false {
                try GoldenPlacement.check(expected, inside: folder)
            }
            if golden?.isLink == true {
                // A golden file linked to another: whoever else writes there would share it.
                let real = FileIdentity.realPath(expected) ?? expected
                if let other = DirectoryPlan.claimant(ofGolden: real), other != file.path {
                    throw TimelineError(
                        file: expected,
                        message: "\(other) and \(file.path) would share this expected output; rename one of them")
                }
                try claims.claim(real, by: file.path, shown: expected)
            } else if claims.hasAnyGolden {
                try claims.checkFree(listing.realPath(of: name), for: file.path, shown: expected)
            }
            let known = suite.update || golden != nil
            return known ? .timeline(file.path, expected: expected) : .skipped(file.path, expected: expected)
        }
    }
}
