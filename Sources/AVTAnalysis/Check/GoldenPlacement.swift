import AVTOutput
import AVTTimeline

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a golden file found beside a timeline may be: inside the folder checked. A checkout
/// under review chooses its files and links; a golden that is a symlink out of the folder would
/// let `check` quote a file elsewhere in its report, and `check --update` write over it (or,
/// through a dangling link, create one). Such a golden is bad input before anything is read or
/// written. A golden named with `--expect` is the command line's choice and is not restricted.
package enum GoldenPlacement {
    /// Throws unless `expected` is absent, or a regular file (possibly through symlinks) whose
    /// real path is inside `folder`.
    package static func check(_ expected: String, inside folder: String) throws(TimelineError) {
        var link = stat()
        guard lstat(expected, &link) == 0 else { return }
        let isLink = (link.st_mode & S_IFMT) == S_IFLNK
        guard let real = FileIdentity.realPath(expected) else {
            throw TimelineError(
                file: expected,
                message: "the expected output is a dangling symlink; goldens stay inside \(folder) "
                    + "(remove the link, or name a golden elsewhere with --expect)")
        }
        let root = FileIdentity.realPath(folder) ?? folder
        if isLink, !(real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/")) {
            throw TimelineError(
                file: expected,
                message: "the expected output is a symlink out of \(folder); goldens stay inside the folder "
                    + "checked (nothing was read or written; name a golden elsewhere with --expect)")
        }
        var info = stat()
        guard stat(expected, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw TimelineError(
                file: expected, message: "the expected output is not a regular file (a directory, FIFO or device)")
        }
    }

    /// The folder a timeline's golden must stay in: the directory argument it was found under,
    /// or the folder of a timeline given as a file.
    package static func folder(of timeline: String, argument: String, isDirectory: Bool) -> String {
        if isDirectory { return argument.hasSuffix("/") && argument.count > 1 ? String(argument.dropLast()) : argument }
        guard let slash = timeline.lastIndex(of: "/") else { return "." }
        return slash == timeline.startIndex ? "/" : String(timeline[..<slash])
    }
}
