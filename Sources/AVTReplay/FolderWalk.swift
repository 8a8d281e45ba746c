import AVTOutput
import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files in a folder tree, in path order, one directory listing at a time: a suite of
/// 100,000 cases is walked in the memory of its largest directory. A hostile or careless tree
/// must not make a walk hang or explode: a directory is entered once (by device and inode, so
/// `ln -s .. a/up` is no loop, and a folder given twice is walked once), a symlink leading out of
/// the given folder is skipped, and a FIFO, socket or device is skipped (opening a FIFO blocks
/// until a writer comes). Skips are reported through `warn`, naming the entry.
package struct FolderWalk {
    /// A file of the tree (a regular file, or a dangling symlink: reading it says what is wrong).
    package struct File: Sendable, Equatable {
        /// The path through the tree (`root/sub/name`).
        package let path: String
        package let name: String
        /// Reached through a symlink: another path may name the same file.
        package let isLink: Bool
    }

    package enum Event: Equatable {
        /// A directory is entered; its files follow as `.file` events, in order, between the
        /// events of its subdirectories.
        case directory(String, files: [File])
        case file(File)
    }

    private enum Entry {
        case file(File)
        case directory(String, FileIdentity)
    }

    private let root: String
    /// The real path of the given folder; every followed symlink must land under it.
    private let realRoot: String
    private let warn: (String) -> Void
    /// The directories entered, by this walk and by the walks whose set it was given.
    package private(set) var visited: Set<FileIdentity>
    /// The listings being walked, innermost last, each with the index of its next entry.
    private var stack: [(entries: [Entry], next: Int)] = []
    private var started = false

    /// A walk of `root`. A directory in `visited` is not entered again: a root already walked
    /// gives nothing.
    package init(
        under root: String, visited: Set<FileIdentity> = [],
        warn: @escaping (String) -> Void = FolderWalk.warnOnStandardError
    ) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.realRoot = FileIdentity.realPath(root) ?? root
        self.visited = visited
        self.warn = warn
    }

    /// Every file under `directory` (hidden entries left out), named by its path through the
    /// tree, sorted by path. Throws when a directory in the tree cannot be read.
    package static func files(
        under directory: String, warn: @escaping (String) -> Void = FolderWalk.warnOnStandardError
    ) throws(TimelineError) -> [String] {
        var walk = FolderWalk(under: directory, warn: warn)
        var files: [String] = []
        while let event = try walk.next() {
            if case .file(let file) = event { files.append(file.path) }
        }
        return files
    }

    /// `avtreplay: warning: …` on standard error (the library has no diagnostics channel of its own).
    package static func warnOnStandardError(_ message: String) {
        let bytes = Array("avtreplay: warning: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// The next event in path order; nil at the end. Throws when a directory cannot be read.
    package mutating func next() throws(TimelineError) -> Event? {
        if !started {
            started = true
            if let identity = FileIdentity(path: root), !visited.insert(identity).inserted { return nil }
            return try enter(root)
        }
        while let top = stack.last {
            guard top.next < top.entries.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            switch top.entries[top.next] {
            case .file(let file):
                return .file(file)
            case .directory(let path, let identity):
                // Entered once: a second way in (a loop, two links to one folder) adds nothing.
                if visited.insert(identity).inserted { return try enter(path) }
            }
        }
        return nil
    }

    private mutating func enter(_ directory: String) throws(TimelineError) -> Event {
        guard let names = Self.visibleNames(in: directory) else {
            throw TimelineError(file: directory, message: "cannot read directory: \(String(cString: strerror(errno)))")
        }
        var keyed: [(key: String, entry: Entry)] = []
        for name in names {
            let path = directory == "/" ? "/" + name : directory + "/" + name
            if let entry = classify(path, name: name) {
                // A directory sorts as `name/`, so walking listings in order gives every path of
                // the tree in byte order (`b-c/x` before `b/y`, as a sort of whole paths would).
                if case .directory = entry { keyed.append((name + "/", entry)) } else { keyed.append((name, entry)) }
            }
        }
        keyed.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let entries = keyed.map(\.entry)
        stack.append((entries, 0))
        let files = entries.compactMap { entry -> File? in
            if case .file(let file) = entry { return file }
            return nil
        }
        return .directory(directory, files: files)
    }

    /// What an entry is to the walk; nil for what is skipped (with a warning where it matters).
    private func classify(_ path: String, name: String) -> Entry? {
        var link = stat()
        guard lstat(path, &link) == 0 else { return nil }
        let isLink = (link.st_mode & S_IFMT) == S_IFLNK
        if isLink, let real = FileIdentity.realPath(path), !isInsideRoot(real) {
            warn("\(path): skipped, a symlink out of \(root) (walks stay inside the folder given)")
            return nil
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return .file(File(path: path, name: name, isLink: isLink)) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            return .directory(path, FileIdentity(device: info.st_dev, inode: info.st_ino))
        case S_IFREG:
            return .file(File(path: path, name: name, isLink: isLink))
        default:
            warn("\(path): skipped, not a regular file (a FIFO, socket or device)")
            return nil
        }
    }

    private func isInsideRoot(_ real: String) -> Bool {
        real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// The names in a directory, in the order the system lists them, hidden ones (`.x`) left out;
    /// nil when it cannot be read (`errno` says why).
    private static func visibleNames(in directory: String) -> [String]? {
        guard let handle = opendir(directory) else { return nil }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            // d_name is a fixed-size C array: the name runs to its first NUL.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }
}
