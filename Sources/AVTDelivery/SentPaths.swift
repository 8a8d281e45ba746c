import Foundation

/// The carbon paths and times a run has sent, to count the lines carbon will overwrite: it
/// keeps one value per path and step, so a line whose path and time were sent before replaces
/// the earlier value. Lines come already aggregated per step, so their times are step starts.
/// Times are kept per path (a run has few paths and many times), so memory stays near eight
/// bytes per line sent.
final class SentPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [String: Set<Int>] = [:]

    /// Records `lines` (`path value seconds`); returns how many repeat a path and time already
    /// recorded.
    func insert(_ lines: [String]) -> Int {
        lock.withLock {
            var repeated = 0
            for line in lines {
                let fields = line.split(separator: " ")
                guard fields.count == 3, let seconds = Int(fields[2]) else { continue }
                if !times[String(fields[0]), default: []].insert(seconds).inserted { repeated += 1 }
            }
            return repeated
        }
    }
}
