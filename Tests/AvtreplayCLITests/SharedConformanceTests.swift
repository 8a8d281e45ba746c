import Foundation
import XCTest

/// The OpenAVT conformance cases through the built binary. The in-repository copy
/// (`Tests/Conformance`) always runs; where the project's shared folder is beside the clone
/// (`AVTREPLAY_SHARED_DIR`, else `../shared`), its own comparer `compare.py` runs on its own
/// cases too, and the copy must equal them file for file, so the two cannot drift apart.
final class SharedConformanceTests: XCTestCase {
    func testScenariosThroughTheBinary() throws { try compare("scenarios") }
    func testRandomCasesThroughTheBinary() throws { try compare("random") }
    func testTheCopyInTheRepositoryEqualsTheSharedCases() throws {
        let shared = try sharedConformance()
        for suite in ["scenarios", "random"] {
            let copy = Self.copy.appendingPathComponent(suite)
            let theirs = shared.appendingPathComponent(suite)
            let names = { (dir: URL) in
                Set(
                    try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
                        $0.hasSuffix(".json") || $0.hasSuffix(".jsonl")
                    })
            }
            let (mine, original) = (try names(copy), try names(theirs))
            XCTAssertEqual(mine, original, "Tests/Conformance/\(suite) holds other files than \(theirs.path)")
            for name in mine.intersection(original).sorted() {
                let a = try Data(contentsOf: copy.appendingPathComponent(name))
                let b = try Data(contentsOf: theirs.appendingPathComponent(name))
                XCTAssertEqual(a, b, "Tests/Conformance/\(suite)/\(name) differs from \(theirs.path)/\(name)")
            }
        }
    }

    private static var copy: URL { CLI.packageRoot.appendingPathComponent("Tests/Conformance") }

    /// `../shared/conformance`: required under `AVTREPLAY_REQUIRE_SHARED=1`, a skip otherwise
    /// (a clone on its own has only the copy, which `ConformanceTests` replays).
    private func sharedConformance() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        let shared =
            environment["AVTREPLAY_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
            ?? CLI.packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        let conformance = shared.appendingPathComponent("conformance")
        guard FileManager.default.fileExists(atPath: conformance.appendingPathComponent("compare.py").path) else {
            let message = "no shared conformance folder at \(conformance.path) (set AVTREPLAY_SHARED_DIR)"
            if environment["AVTREPLAY_REQUIRE_SHARED"] == "1" { XCTFail(message) }
            throw XCTSkip(message)
        }
        return conformance
    }

    private func compare(_ suite: String) throws {
        let shared = try sharedConformance()
        let script = shared.appendingPathComponent("compare.py")
        guard
            let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(
                where: FileManager.default.isExecutableFile)
                ?? which("python3")
        else {
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_SHARED"] == "1" {
                return XCTFail("python3 is needed to run compare.py")
            }
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
