import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// How `check` walks a folder of cases: in path order, a listing at a time, each file once.
final class GoldenSuiteWalkTests: XCTestCase {
    private static let timeline = """
        {"trackers": [{"name": "content"}], "steps": [{"t": 0, "tracker": "content", "action": "StreamLoad"}]}
        """

    private func relative(_ items: [GoldenSuite.Item], to root: String) -> [String] {
        items.map { item in
            let path = String(item.path.dropFirst(root.count + 1))
            switch item {
            case .timeline: return path
            case .skipped: return "skipped " + path
            case .orphaned: return "orphaned " + path
            }
        }
    }

    /// Listings walked in order give every path in byte order, as a sort of whole paths would:
    /// `b-c/x` before `b.json` before `b/y`, a file before the folder its name begins.
    func testFolderWalkGoesInPathOrder() throws {
        let scratch = try ScratchDirectory()
        for name in ["b/y.json", "b-c/x.json", "b.json", "a/z/q.json", "a/z.json", "c.json"] {
            try scratch.write(name, "")
        }
        let root = scratch.url.path
        let files = try FolderWalk.files(under: root)
        XCTAssertEqual(
            files.map { String($0.dropFirst(root.count + 1)) },
            ["a/z.json", "a/z/q.json", "b-c/x.json", "b.json", "b/y.json", "c.json"])

        // A folder already walked (given twice, or inside one given) gives nothing again.
        var walk = FolderWalk(under: root)
        while try walk.next() != nil {}
        var again = FolderWalk(under: root + "/b", visited: walk.visited)
        XCTAssertNil(try again.next())
    }

    /// A golden file without its timeline is listed where its path falls, between the cases,
    /// so a report of a large folder reads in the order of the files.
    func testOrphansComeInPathOrder() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("a.json", Self.timeline)
        try scratch.write("a.expected.jsonl", "")
        try scratch.write("m.expected.jsonl", "")
        try scratch.write("sub/n.expected.jsonl", "")
        try scratch.write("sub/o.json", Self.timeline)
        try scratch.write("z.json", Self.timeline)
        let root = scratch.url.path
        let suite = try GoldenSuite([root])
        XCTAssertEqual(
            relative(suite.items, to: root),
            [
                "a.json", "orphaned m.expected.jsonl", "orphaned sub/n.expected.jsonl", "skipped sub/o.json",
                "skipped z.json",
            ])
        XCTAssertEqual(suite.count, 5)
    }

    /// A timeline reached twice (a file given and the folder holding it, a symlink beside its
    /// target, a folder given twice) is one case, and its golden file is no orphan.
    func testTheSameFileReachedTwiceIsOneCase() throws {
        let scratch = try ScratchDirectory()
        let a = try scratch.write("a.json", Self.timeline)
        try scratch.write("a.expected.jsonl", "")
        XCTAssertEqual(symlink("a.json", scratch.url.appendingPathComponent("l.json").path), 0)
        let root = scratch.url.path
        for arguments in [[root], [a, root], [root, a], [root, root]] {
            let items = try GoldenSuite(arguments).items
            XCTAssertEqual(items.map(\.path), [a], "\(arguments)")
        }
    }

    /// A golden file that is a symlink to another timeline's golden file would be written by
    /// both: refused, whichever of the two comes first.
    func testALinkedGoldenSharedWithAnotherTimelineIsRefused() throws {
        for linked in ["0", "z"] {
            let scratch = try ScratchDirectory()
            try scratch.write("a.json", Self.timeline)
            try scratch.write("a.expected.jsonl", "")
            try scratch.write("\(linked).json", Self.timeline)
            let link = scratch.url.appendingPathComponent("\(linked).expected.jsonl").path
            XCTAssertEqual(symlink("a.expected.jsonl", link), 0)
            XCTAssertThrowsError(try GoldenSuite([scratch.url.path])) { error in
                XCTAssertTrue("\(error)".contains("would share this expected output"), "\(error)")
            }
        }
    }

    /// `--shard K/N` takes every Nth item of the whole suite, orphans included, and counts them.
    func testAShardCountsItsShare() throws {
        let scratch = try ScratchDirectory()
        for n in 0..<5 { try scratch.write("s\(n).json", Self.timeline) }
        try scratch.write("t.expected.jsonl", "")
        let root = scratch.url.path
        let whole = try GoldenSuite([root])
        let second = try GoldenSuite([root], shard: Shard("2/2"))
        XCTAssertEqual(whole.count, 6)
        XCTAssertEqual(second.count, 3)
        XCTAssertEqual(second.items, [whole.items[1], whole.items[3], whole.items[5]])
    }

    /// An existing file the suite reads (a golden file, a timeline) is no place for the report.
    func testTheReportIsNotWrittenOverWhatTheSuiteReads() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("a.json", Self.timeline)
        let golden = try scratch.write("a.expected.jsonl", "")
        XCTAssertThrowsError(try GoldenSuite([scratch.url.path], outputs: [golden])) { error in
            XCTAssertTrue("\(error)".contains("it is also an input"), "\(error)")
        }
        XCTAssertNoThrow(
            try GoldenSuite([scratch.url.path], outputs: ["-", scratch.url.appendingPathComponent("r.xml").path]))
    }
}
