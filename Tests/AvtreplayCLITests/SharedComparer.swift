import Foundation
import XCTest

/// The project's shared folder of reference cases beside the clone (`AVTREPLAY_SHARED_DIR`, else
/// `../shared`) and its Python comparers, run against the built binary. Without the folder a
/// test skips with the reason; under `AVTREPLAY_REQUIRE_SHARED=1` (scripts/test, when the
/// folder is there) it fails instead.
enum SharedComparer {
    static var required: Bool { ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_SHARED"] == "1" }

    /// `sub` inside the shared folder, holding `file`; a skip (or failure) when it is absent.
    static func folder(_ sub: String, holding file: String) throws -> URL {
        let shared =
            ProcessInfo.processInfo.environment["AVTREPLAY_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
            ?? CLI.packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        let folder = shared.appendingPathComponent(sub)
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path) else {
            let message = "no \(sub) folder at \(folder.path) (set AVTREPLAY_SHARED_DIR)"
            if required { XCTFail(message) }
            throw XCTSkip(message)
        }
        return folder
    }

    /// Runs `python3 SCRIPT ARGUMENTS…` and checks it reports every case passed.
    static func assertPasses(_ script: URL, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let paths =
            ["/usr/bin/python3", "/usr/local/bin/python3"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" }
        guard let python = paths.first(where: FileManager.default.isExecutableFile) else {
            if required {
                return XCTFail("python3 is needed to run \(script.lastPathComponent)", file: file, line: line)
            }
            throw XCTSkip("python3 not found: cannot run \(script.lastPathComponent)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text, file: file, line: line)
        XCTAssertTrue(text.contains(" passed, 0 failed"), text, file: file, line: line)
    }
}
