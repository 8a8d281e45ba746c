import CZlib
import Foundation
import XCTest

/// Renders a fixture's report in headless Chromium and checks the picture is a report, not a
/// blank page: under scripts/test (which installs chromium) this must run; elsewhere it skips
/// when chromium is missing. The PNG is kept at .build/report-screenshot.png to look at.
final class ReportScreenshotTests: XCTestCase {
    static let screenshot = CLI.packageRoot.appendingPathComponent(".build/report-screenshot.png")

    func testTheFixtureReportRendersAsAPicture() throws {
        let browser = try Chromium.path(for: "the headless screenshot of a report")
        let dir = try CLI.temporaryDirectory()
        let html = dir.appendingPathComponent("report.html")
        let result = try CLI.run(["report", "fixtures/avplayer-session.json", "-o", html.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        try? FileManager.default.removeItem(at: Self.screenshot)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        // No sandbox (root in CI containers), no GPU (headless machines), a fresh profile.
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(dir.path)/profile",
            "--screenshot=\(Self.screenshot.path)", "--window-size=1280,900", html.absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let png = try PNGImage(Data(contentsOf: Self.screenshot))
        XCTAssertEqual([png.width, png.height], [1280, 900])
        print("report screenshot: \(Self.screenshot.path)")
        // A blank page is one colour. The report has text, lanes and bars: many colours and a
        // good share of pixels off the background.
        var counts: [UInt32: Int] = [:]
        for y in 0..<png.height {
            for x in 0..<png.width { counts[png.rgb(x, y), default: 0] += 1 }
        }
        let background = counts.max { $0.value < $1.value }!
        let offBackground = Double(png.width * png.height - background.value) / Double(png.width * png.height)
        XCTAssertGreaterThan(counts.count, 50, "distinct colours")
        XCTAssertGreaterThan(offBackground, 0.05, "share of pixels off the background")
        // The timeline was drawn: the light theme's pause, rebuffer and playback colours fill bars.
        for (name, colour) in [
            ("pause #f0b429", 0xF0B429), ("rebuffer #e4572e", 0xE4572E), ("playback #8fd19e", 0x8FD19E),
        ] {
            XCTAssertGreaterThan(counts[UInt32(colour)] ?? 0, 40, name)
        }
    }
}

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
}

/// Just enough PNG to read pixels: 8-bit RGB or RGBA, non-interlaced, as Chromium writes them.
struct PNGImage {
    var width = 0, height = 0
    private var channels = 0
    private var pixels: [UInt8] = []

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Malformed(description: "not a PNG")
        }
        func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        var compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            guard body + length <= bytes.count else { throw Malformed(description: "truncated \(type)") }
            if type == "IHDR" {
                width = u32(body)
                height = u32(body + 4)
                guard bytes[body + 8] == 8, bytes[body + 12] == 0, [2, 6].contains(bytes[body + 9]) else {
                    throw Malformed(description: "unsupported PNG format")
                }
                channels = bytes[body + 9] == 6 ? 4 : 3
            } else if type == "IDAT" {
                compressed += bytes[body..<body + length]
            }
            offset = body + length + 4
        }
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: height * (stride + 1))
        var rawLength = uLongf(raw.count)
        let status = uncompress(&raw, &rawLength, compressed, uLong(compressed.count))
        guard status == Z_OK, Int(rawLength) == raw.count else { throw Malformed(description: "zlib status \(status)") }
        pixels = [UInt8](repeating: 0, count: height * stride)
        // Undo the per-row filters (PNG spec 9.2): None, Sub, Up, Average, Paeth.
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for i in 0..<stride {
                let x = raw[y * (stride + 1) + 1 + i]
                let a = i >= channels ? Int(pixels[y * stride + i - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + i]) : 0
                let c = (i >= channels && y > 0) ? Int(pixels[(y - 1) * stride + i - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let pa = abs(p - a)
                    let pb = abs(p - b)
                    let pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Malformed(description: "filter \(filter)")
                }
                pixels[y * stride + i] = x &+ UInt8(predictor & 0xFF)
            }
        }
    }

    /// 0xRRGGBB of a pixel.
    func rgb(_ x: Int, _ y: Int) -> UInt32 {
        let i = (y * width + x) * channels
        return UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2])
    }
}
