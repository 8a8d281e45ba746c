import Foundation
import XCTest

/// `kpi --definitions exoplayer` against what ExoPlayer's own PlaybackStatsListener reports, on
/// the project's shared ExoPlayer timelines (`kpi-oracle` in `AVTREPLAY_SHARED_DIR`, else
/// `../shared` beside the clone), through the built binary and the folder's own `compare.py`.
/// The cases stay in the shared folder: a clone on its own skips this test.
final class KPIOracleTests: XCTestCase {
    func testEveryExoPlayerCaseEqualsPlaybackStats() throws {
        let environment = ProcessInfo.processInfo.environment
        let required = environment["AVTREPLAY_REQUIRE_SHARED"] == "1"
        let shared =
            environment["AVTREPLAY_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
            ?? CLI.packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        let script = shared.appendingPathComponent("kpi-oracle/compare.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            let message =
                "no kpi-oracle folder at \(script.deletingLastPathComponent().path) (set AVTREPLAY_SHARED_DIR)"
            if required { XCTFail(message) }
            throw XCTSkip(message)
        }
        guard let python = Self.python3() else {
            if required { return XCTFail("python3 is needed to run compare.py") }
            throw XCTSkip("python3 not found: cannot run compare.py")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, try CLI.binary.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains(" passed, 0 failed"), text)
    }

    private static func python3() -> String? {
        let paths =
            ["/usr/bin/python3", "/usr/local/bin/python3"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" }
        return paths.first(where: FileManager.default.isExecutableFile)
    }
}
