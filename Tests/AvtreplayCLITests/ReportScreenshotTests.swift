import CZlib
import Foundation
import XCTest

/// The screenshots in docs/ are the report as it is: `scripts/report-screenshots` regenerates
/// them (the command docs/report.md shows, at 1400 and 400 px wide, in headless Chromium) and
/// the pictures must match the committed PNGs, pixel by pixel within a small tolerance (text
/// antialiasing may differ by a shade). Under scripts/test (which installs chromium) this must
/// run; elsewhere it skips when chromium is missing. The new PNGs are kept in .build/ to look at.
final class ReportScreenshotTests: XCTestCase {
    static let regenerated = CLI.packageRoot.appendingPathComponent(".build/report-screenshots")

    func testTheDocsScreenshotsShowTheCurrentReport() throws {
        let browser = try Chromium.path(for: "the report's screenshots")
        try? FileManager.default.removeItem(at: Self.regenerated)
        let script = Process()
        script.executableURL = CLI.packageRoot.appendingPathComponent("scripts/report-screenshots")
        script.arguments = [Self.regenerated.path]
        var environment = ProcessInfo.processInfo.environment
        environment["AVTREPLAY"] = try CLI.binary.path
        environment["CHROMIUM"] = browser
        script.environment = environment
        let errors = Pipe()
        script.standardOutput = FileHandle.nullDevice
        script.standardError = errors
        try script.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        XCTAssertEqual(script.terminationStatus, 0, said)
        print("report screenshots: \(Self.regenerated.path)")
        for (name, width) in [("report-1400.png", 1400), ("report-400.png", 400)] {
            let new = try PNGImage(Data(contentsOf: Self.regenerated.appendingPathComponent(name)))
            let committed = try PNGImage(Data(contentsOf: CLI.packageRoot.appendingPathComponent("docs/\(name)")))
            XCTAssertEqual(new.width, width, name)
            XCTAssertEqual([new.width, new.height], [committed.width, committed.height], name)
            guard new.width == committed.width, new.height == committed.height else { continue }
            // A pixel differs when a channel is off by more than 48 of 255; at most 0.2 % may.
            var differing = 0
            for y in 0..<new.height {
                for x in 0..<new.width where Self.distance(new.rgb(x, y), committed.rgb(x, y)) > 48 {
                    differing += 1
                }
            }
            let share = Double(differing) / Double(new.width * new.height)
            XCTAssertLessThan(
                share, 0.002,
                "docs/\(name) no longer shows the report (\(differing) pixels differ): run scripts/report-screenshots")
            Self.assertIsAReport(new, name)
        }
    }

    /// The largest difference of one channel.
    static func distance(_ a: UInt32, _ b: UInt32) -> Int {
        [16, 8, 0].map { abs(Int(a >> $0 & 0xFF) - Int(b >> $0 & 0xFF)) }.max()!
    }

    /// Not a blank page: text, lanes and state spans in the light theme's colours.
    static func assertIsAReport(_ png: PNGImage, _ name: String) {
        var counts: [UInt32: Int] = [:]
        for y in 0..<png.height {
            for x in 0..<png.width { counts[png.rgb(x, y), default: 0] += 1 }
        }
        let background = counts.max { $0.value < $1.value }!
        let offBackground = Double(png.width * png.height - background.value) / Double(png.width * png.height)
        XCTAssertGreaterThan(counts.count, 50, "distinct colours in \(name)")
        XCTAssertGreaterThan(offBackground, 0.05, "share of pixels off the background in \(name)")
        // The playback lane was drawn: playing, paused and buffering spans.
        for (state, colour) in [
            ("playing #8fd19e", 0x8FD19E), ("paused #f0b429", 0xF0B429), ("buffering #e4572e", 0xE4572E),
        ] {
            XCTAssertGreaterThan(counts[UInt32(colour)] ?? 0, 40, "\(state) in \(name)")
        }
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
