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

    private func sharedConformance() throws -> URL {
        try SharedComparer.folder("conformance", holding: "compare.py")
    }

    private func compare(_ suite: String) throws {
        let shared = try sharedConformance()
        try SharedComparer.assertPasses(
            shared.appendingPathComponent("compare.py"),
            [shared.appendingPathComponent(suite).path, "\(try CLI.binary.path) run {timeline}", "--jobs", "2"])
    }
}
