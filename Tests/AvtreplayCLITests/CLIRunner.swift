import Foundation
import XCTest

/// Runs the built `avtreplay` binary the way a user or CI does and captures what it prints.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary SwiftPM built beside this test bundle.
    static var binary: URL {
        get throws {
            var dir = Bundle(for: Marker.self).bundleURL
            for _ in 0..<3 {
                let candidate = dir.appendingPathComponent("avtreplay")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                dir = dir.deletingLastPathComponent()
            }
            throw XCTSkip("avtreplay binary not found next to the test bundle; run `swift build` first")
        }
    }

    private final class Marker {}

    /// `executable`: another program to run instead (one that runs avtreplay, such as strace).
    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        in directory: URL = packageRoot, executable: URL? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = try executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("avtreplay-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A temporary directory holding copies of these JSON fixtures (by name, without `.json`).
    static func fixtureDirectory(_ names: [String]) throws -> URL {
        let dir = try temporaryDirectory()
        for name in names {
            try FileManager.default.copyItem(
                at: packageRoot.appendingPathComponent("fixtures/\(name).json"),
                to: dir.appendingPathComponent("\(name).json"))
        }
        return dir
    }

    /// Whether process `pid` holds `path` open (a FIFO it waits on, once its handlers are in place).
    static func holds(_ pid: Int32, _ path: String) -> Bool {
        let fds = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0)) == path }
    }
}
