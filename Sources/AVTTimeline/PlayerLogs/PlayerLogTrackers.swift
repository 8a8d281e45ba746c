import AVTTrackers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The trackers of a player log: one per session (player) in it, because a tracker's stream
/// loads once (the hub accepts one StreamLoad per tracker), so a second player on the same
/// tracker would measure its startup from the first one's load. The first is `content`, the
/// next `content-2`, `content-3`… Readers of standard input, which cannot count the sessions
/// before reading them, share one tracker and say so.
package enum PlayerLogTrackers {
    /// At most this many trackers; later sessions share the last one.
    package static let limit = 10_000

    package static func specs(_ count: Int, kind: TrackerKind) -> [TrackerSpec] {
        (0..<max(1, min(count, limit))).map { TrackerSpec(name: name(of: $0), kind: kind) }
    }

    package static func name(of index: Int) -> String { index == 0 ? "content" : "content-\(index + 1)" }

    /// What happens to the sessions past the declared trackers.
    package static func sharedWarning(trackers: Int) -> String {
        trackers >= limit
            ? "more than \(limit) sessions: the later ones share the last tracker (their startup is measured from its stream load)"
            : "several sessions, read from standard input: they share one tracker (the startup of the later ones is measured from the first stream load); give the log as a file"
    }

    /// Whether a path can be read twice (a pipe or a FIFO cannot).
    package static func isRereadable(_ path: String) -> Bool {
        var info = stat()
        return path != "-" && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
