import AVTReplayKit
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The library prints nothing the caller did not ask for: a player log's warnings go to the
/// handler given to the entry point, and nowhere without one (the command line's prints them).
final class LibraryQuietTests: XCTestCase {
    static let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/player-logs/exoplayer-studio-midsession-cut.log")
        .path

    /// What `body` wrote to standard error (file descriptor 2).
    private func standardError(_ body: () throws -> Void) throws -> String {
        let path = NSTemporaryDirectory() + "stderr-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(file, 0)
        let saved = dup(2)
        dup2(file, 2)
        defer {
            dup2(saved, 2)
            close(saved)
            close(file)
        }
        try body()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    func testEntryPointsWithoutAHandlerPrintNothing() throws {
        let printed = try standardError {
            var source = try TimelineReader.open(Self.log)
            while try source.nextStep() != nil {}
            try Replayer.run(Self.log, into: MemorySink())
            _ = try KPISessions.replay(Self.log)
            _ = try GoldenChecker().check([Self.log], expect: Self.log + ".no-such-golden.jsonl")
        }
        XCTAssertEqual(printed, "")
    }

    /// A folder whose walk skips something (a FIFO) says so to the checker's handler only.
    func testAFolderWalksSkipsGoToTheHandler() throws {
        let folder = NSTemporaryDirectory() + "quiet-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Self.log, toPath: folder + "/s.log")
        XCTAssertEqual(mkfifo(folder + "/pipe.json", 0o644), 0)
        let printed = try standardError { _ = try GoldenChecker().plan([folder]) }
        XCTAssertEqual(printed, "")
        final class Said: @unchecked Sendable {
            var messages: [String] = []
        }
        let said = Said()
        var checker = GoldenChecker()
        checker.warn = { said.messages.append($0) }
        _ = try checker.plan([folder])
        XCTAssertEqual(said.messages.filter { $0.contains("pipe.json: skipped") }.count, 1, "\(said.messages)")
    }

    func testWarningsGoToTheCallersHandler() throws {
        final class Collected: @unchecked Sendable {
            private let lock = NSLock()
            private var messages: [String] = []
            func add(_ message: String) { lock.withLock { messages.append(message) } }
            var all: [String] { lock.withLock { messages } }
        }
        let reader = Collected()
        let run = Collected()
        let kpi = Collected()
        let printed = try standardError {
            var source = try TimelineReader.open(Self.log, warn: reader.add)
            while try source.nextStep() != nil {}
            try Replayer.run(Self.log, into: MemorySink(), warn: run.add)
            _ = try KPISessions.replay(Self.log, warn: kpi.add)
        }
        XCTAssertEqual(printed, "")
        XCTAssertTrue(reader.all.contains { $0.contains(":11: cut before its closing ], skipped") }, "\(reader.all)")
        XCTAssertEqual(run.all, reader.all)
        XCTAssertEqual(kpi.all, reader.all)
    }
}
