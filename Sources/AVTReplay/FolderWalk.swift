import AVTOutput
import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files in a folder tree, for the timeline walk and the golden-file walk. A hostile or
/// careless tree must not make a walk hang or explode: a directory is entered once (by device
/// and inode, so `ln -s .. a/up` is no loop), a symlink leading out of the given folder is
/// skipped, and a FIFO, socket or device is skipped (opening a FIFO blocks until a writer comes).
/// Skips are reported through `warn`, naming the entry.
package struct FolderWalk {
    private let root: String
    /// The real path of the given folder; every followed symlink must land under it.
    private let realRoot: String
    private let warn: (String) -> Void
    private var visited = Set<FileIdentity>()
    private var files: [String] = []

    /// Every file under `directory` (hidden entries left out), named by its path through the
    /// tree, in listing order. Throws when a directory in the tree cannot be read.
    package static func files(
        under directory: String, warn: @escaping (String) -> Void = FolderWalk.warnOnStandardError
    ) throws(TimelineError) -> [String] {
        var walk = FolderWalk(root: directory, warn: warn)
        if let identity = FileIdentity(path: directory) { walk.visited.insert(identity) }
        try walk.enter(directory)
        return walk.files
    }

    /// `avtreplay: warning: …` on standard error (the library has no diagnostics channel of its own).
    package static func warnOnStandardError(_ message: String) {
        let bytes = Array("avtreplay: warning: \(message)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private init(root: String, warn: @escaping (String) -> Void) {
        self.root = root
        self.realRoot = FileIdentity.realPath(root) ?? root
        self.warn = warn
    }

    private mutating func enter(_ directory: String) throws(TimelineError) {
        guard let names = Self.visibleNames(in: directory) else {
            throw TimelineError(file: directory, message: "cannot read directory: \(String(cString: strerror(errno)))")
        }
        for name in names {
            let path = directory + "/" + name
            var link = stat()
            guard lstat(path, &link) == 0 else { continue }
            if (link.st_mode & S_IFMT) == S_IFLNK, let real = FileIdentity.realPath(path), !isInsideRoot(real) {
                warn("\(path): skipped, a symlink out of \(root) (walks stay inside the folder given)")
                continue
            }
            var info = stat()
            // A dangling symlink is passed on as a file: reading it says what is wrong.
            guard stat(path, &info) == 0 else {
                files.append(path)
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                // Entered once: a second way in (a loop, two links to one folder) adds nothing.
                if visited.insert(FileIdentity(device: info.st_dev, inode: info.st_ino)).inserted {
                    try enter(path)
                }
            case S_IFREG:
                files.append(path)
            default:
                warn("\(path): skipped, not a regular file (a FIFO, socket or device)")
            }
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
