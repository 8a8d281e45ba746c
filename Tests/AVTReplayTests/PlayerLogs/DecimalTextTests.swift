import XCTest

@testable import AVTTimeline

/// The access log's numbers read by bytes must be the very Doubles `Double(_:)` (strtod) gives:
/// KPIs are sums of them, and a last-bit difference would change a printed value.
final class DecimalTextTests: XCTestCase {
    func testPlainDecimalsEqualStrtod() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "0.0", "36.000", "30.250", "6000000.000", "1.5", ".5", "5.", "0.1", "0.3", "999999999999999"]
        for _ in 0..<20_000 {
            let whole = String(UInt64.random(in: 0...9_999_999, using: &generator))
            let decimals = Int.random(in: 0...9, using: &generator)
            let fraction = String(
                (0..<decimals).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            texts.append(decimals == 0 ? whole : whole + "." + fraction)
        }
        for text in texts {
            let expected = Double(text)
            XCTAssertEqual(DecimalText.double(Substring(text))?.bitPattern, expected?.bitPattern, text)
        }
    }

    func testAnythingElseIsLeftToStrtod() {
        for text in ["", ".", "-", "-1.5", "+2", "1e5", "nan", "inf", "1.2.3", "12345678901234567.5", "0x10", " 1"] {
            XCTAssertEqual(DecimalText.double(Substring(text))?.bitPattern, Double(text)?.bitPattern, text)
        }
    }
}
