import Foundation
import XCTest

/// Headless Chromium for the report tests: required under scripts/test (AVTREPLAY_REQUIRE_TOOLS=1,
/// which installs it), otherwise a missing browser skips the test with the reason.
enum Chromium {
    static func path(for what: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                let candidate = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
            XCTFail("chromium is not installed: scripts/test installs it (apt-get install chromium)")
        }
        throw XCTSkip("no chromium on PATH: \(what) is skipped (apt-get install chromium)")
    }

    /// Loads `page` headless until it settles and returns what its test driver wrote into
    /// `<script type="application/json" id="js-test-result">`, which `--dump-dom` prints verbatim.
    /// No sandbox (root in CI), no GPU, a fresh profile in `profile`; virtual time lets the load
    /// event and the driver finish before the DOM is printed.
    static func testResult<Result: Decodable>(
        _: Result.Type, page: URL, profile: URL, window: String, for what: String, extraFlags: [String] = []
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(for: what))
        process.arguments =
            ["--headless", "--no-sandbox", "--disable-gpu"] + extraFlags + [
                "--user-data-dir=\(profile.path)", "--window-size=\(window)", "--virtual-time-budget=5000",
                "--dump-dom", page.absoluteString,
            ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let marker = "<script type=\"application/json\" id=\"js-test-result\">"
        let start = try XCTUnwrap(dom.range(of: marker), "the driver wrote no result: \(dom.suffix(500))")
        let end = try XCTUnwrap(dom.range(of: "</script>", range: start.upperBound..<dom.endIndex))
        return try JSONDecoder().decode(Result.self, from: Data(dom[start.upperBound..<end.lowerBound].utf8))
    }
}
