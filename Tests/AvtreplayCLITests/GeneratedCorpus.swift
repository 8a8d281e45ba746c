import Foundation
import XCTest

/// A folder of generated sessions (`scripts/gen-timeline.py`, one seed each), for the tests of
/// what a server keeps of a whole folder.
enum GeneratedCorpus {
    /// `count` sessions of `steps` steps on `trackers` trackers (two by default: a scripted one
    /// and an AVPlayer one), as `s001.jsonl`, `s002.jsonl`, … in a new temporary directory.
    static func make(count: Int, steps: Int, trackers: Int = 2) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            """
            for i in $(seq 1 \(count)); do
              python3 scripts/gen-timeline.py \(steps) --seed "$i" --trackers \(trackers) --format jsonl \
                > "$1/$(printf 's%03d.jsonl' "$i")" || exit 1
            done
            """,
            "sh", dir.path,
        ]
        process.currentDirectoryURL = CLI.packageRoot
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "gen-timeline.py failed")
        return dir
    }

    /// The counter metrics of `run`'s JSON Lines output, summed by metric name: what the
    /// sessions counted, from the records themselves.
    static func counterTotals(_ jsonl: String) throws -> [String: Double] {
        var totals: [String: Double] = [:]
        for line in jsonl.split(separator: "\n") {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard record?["metricType"] as? String == "counter", let name = record?["name"] as? String,
                let value = record?["value"] as? Double
            else { continue }
            totals[name, default: 0] += value
        }
        return totals
    }
}
