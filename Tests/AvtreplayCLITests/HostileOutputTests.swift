import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Outputs that are no plain file (a device, a FIFO, a symlink) or that are one of the inputs,
/// and folder walks through symlink loops and FIFOs. Everything lives in a temporary directory.
final class HostileOutputTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"),
            to: directory.appendingPathComponent("x.json"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func kind(_ name: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(lstat(path(name), &info), 0)
        return info.st_mode & S_IFMT
    }

    /// A character device (a private copy of /dev/null) as `-o` is written in place and stays a device.
    func testCharacterDeviceOutputStaysADevice() throws {
        // makedev(1, 3) (the null device) in the Linux encoding; Swift does not import the macro.
        guard mknod(path("null"), S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 else {
            throw XCTSkip("mknod is not permitted here (\(String(cString: strerror(errno))))")
        }
        let result = try CLI.run(["run", "x.json", "-o", "null"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(kind("null"), S_IFCHR)
    }

    /// A FIFO as `-o`: the reader gets the records, and the FIFO is not replaced by a file.
    func testFIFOOutputIsWrittenInPlace() throws {
        XCTAssertEqual(mkfifo(path("pipe"), 0o644), 0)
        let expected = try CLI.run(["run", "x.json"], in: directory).stdout
        let fifo = path("pipe")
        let received = LockedBox()
        let reader = Thread {
            // Plain open/read: Foundation's file reading does not wait on a FIFO for its writer.
            let fd = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while fd >= 0 {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { break }
                received.value.append(contentsOf: buffer[0..<count])
            }
            if fd >= 0 { close(fd) }
            received.done.signal()
        }
        reader.start()
        let result = try CLI.run(["run", "x.json", "-o", "pipe"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(received.done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(String(decoding: received.value, as: UTF8.self), expected)
        XCTAssertEqual(kind("pipe"), S_IFIFO)
    }

    /// A symlink as `-o`: its target gets the records, the link stays a link.
    func testSymlinkOutputWritesItsTarget() throws {
        XCTAssertEqual(symlink("real.jsonl", path("link")), 0)
        let result = try CLI.run(["run", "x.json", "-o", "link"], in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(kind("link"), S_IFLNK)
        let expected = try CLI.run(["run", "x.json"], in: directory).stdout
        XCTAssertEqual(try String(contentsOfFile: path("real.jsonl"), encoding: .utf8), expected)
    }

    /// An output that is one of the inputs, however named, is bad input, and the input is untouched.
    func testOutputThatIsAnInputIsRefused() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path("x.json")))
        XCTAssertEqual(symlink("x.json", path("alias.json")), 0)
        let attempts: [[String]] = [
            ["run", "x.json", "-o", "x.json"],
            ["run", "x.json", "-o", "./alias.json"],
            ["run", "x.json", "--to", "file:x.json"],
            ["run", "x.json", "--to", "influxdb://127.0.0.1:1/db", "--dead-letter", "x.json"],
            ["check", "x.json", "--expect", "x.json", "--update"],
            ["check", "x.json", "--expect", "alias.json", "--update"],
            ["kpi", "x.json", "-o", "x.json"],
            ["kpi", ".", "-o", "alias.json"],
            ["report", "x.json", "-o", "./x.json"],
            ["precall", "x.json", "-o", "x.json"],
            ["convert", "x.json", "alias.json"],
        ]
        for arguments in attempts {
            let result = try CLI.run(arguments, in: directory)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertFalse((result.stdout + result.stderr).contains("created"), "\(arguments)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("x.json"))), before, "\(arguments)")
        }
    }

    /// `ln -s .. a/up` once: the timeline runs once; twice: the walk still ends at once. A FIFO
    /// and a symlink out of the folder are skipped with a warning naming them.
    func testFolderWalkSurvivesLoopsAndFIFOs() throws {
        // Before the fix the second half never ends: stop at the first failure.
        continueAfterFailure = false
        let tree = path("tree")
        try FileManager.default.createDirectory(atPath: tree + "/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tree + "/b", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path("x.json"), toPath: tree + "/a/s.json")
        XCTAssertEqual(symlink("..", tree + "/a/up"), 0)
        let once = try CLI.run(["run", "tree"], in: directory)
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertEqual(
            Set(once.stdout.split(separator: "\n").map { $0.contains(#""session":"a/s.json""#) }), [true])

        XCTAssertEqual(symlink("..", tree + "/b/up"), 0)
        XCTAssertEqual(mkfifo(tree + "/b/pipe.json", 0o644), 0)
        XCTAssertEqual(symlink(directory.path, tree + "/out"), 0)
        for command in ["run", "kpi", "check"] {
            let result = try CLI.run([command, "tree"], in: directory)
            XCTAssertNotEqual(result.status, 2, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("tree/b/pipe.json: skipped"), "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("tree/out: skipped"), "\(command): \(result.stderr)")
        }
    }
}

/// What the FIFO reader thread hands back.
private final class LockedBox: @unchecked Sendable {
    var value = Data()
    let done = DispatchSemaphore(value: 0)
}
