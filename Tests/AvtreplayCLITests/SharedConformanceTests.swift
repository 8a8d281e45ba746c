import Foundation
import XCTest

/// Runs the shared conformance comparer (`compare.py` in the conformance folder, found as in
/// `Conformance.root`) against the built binary, so the CLI path is checked with the reference tool.
final class SharedConformanceTests: XCTestCase {
    func testScenariosThroughTheBinary() throws { try compare("scenarios") }
    func testRandomCasesThroughTheBinary() throws { try compare("random") }

    private func compare(_ suite: String) throws {
        let shared =
            ProcessInfo.processInfo.environment["AVTREPLAY_CONFORMANCE_DIR"]
            .map { URL(fileURLWithPath: $0) }
            ?? CLI.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")
        let script = shared.appendingPathComponent("compare.py")
        let require = ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_CONFORMANCE"] == "1"
        guard FileManager.default.fileExists(atPath: script.path) else {
            if require { return XCTFail("compare.py not found at \(script.path)") }
            throw XCTSkip("shared conformance not found at \(shared.path) (set AVTREPLAY_CONFORMANCE_DIR)")
        }
        guard
            let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(
                where: FileManager.default.isExecutableFile)
                ?? which("python3")
        else {
            if require { return XCTFail("python3 is needed to run compare.py") }
            throw XCTSkip("python3 not found: cannot run compare.py")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            script.path, shared.appendingPathComponent(suite).path, "\(try CLI.binary.path) run {timeline}", "--jobs",
            "2",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains(" passed, 0 failed"), text)
    }

    private func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
