import AVTCore
import XCTest

@testable import AVTFormats

final class ISO8601Tests: XCTestCase {
    func testFormatsEpochMillisecondsInUTC() {
        XCTAssertEqual(ISO8601.format(epochMilliseconds: 0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(epochMilliseconds: 1000), "1970-01-01T00:00:01.000Z")
        XCTAssertEqual(ISO8601.format(epochMilliseconds: 1_772_366_400_123), "2026-03-01T12:00:00.123Z")
        XCTAssertEqual(ISO8601.format(epochMilliseconds: 951_782_400_000), "2000-02-29T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(epochMilliseconds: -1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.format(epochMilliseconds: 253_402_300_799_999), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.format(epochMilliseconds: 253_402_300_800_000), "+10000-01-01T00:00:00.000Z")
    }

    func testParsesTheCommonForms() {
        XCTAssertEqual(ISO8601.parse("2026-03-01T12:00:00Z"), 1_772_366_400_000)
        XCTAssertEqual(ISO8601.parse("2026-03-01T12:00:00.5Z"), 1_772_366_400_500)
        XCTAssertEqual(ISO8601.parse("2026-03-01T12:00:00.123456Z"), 1_772_366_400_123)
        XCTAssertEqual(ISO8601.parse("2026-03-01T13:30:00+01:30"), 1_772_366_400_000)
        XCTAssertEqual(ISO8601.parse("2026-03-01T10:00:00-02:00"), 1_772_366_400_000)
        XCTAssertEqual(ISO8601.parse("1970-01-01T00:00:00Z"), 0)
    }

    func testRejectsMalformedAndImpossibleDates() {
        for text in [
            "", "2026-03-01", "2026-03-01T12:00:00", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-03-01T24:00:00Z", "2026-03-01T12:60:00Z", "2026-03-01T12:00:00.Z", "2026-03-01T12:00:00Zjunk",
            "2026-3-01T12:00:00Z", "2026-03-01T12:00:00+0100",
        ] {
            XCTAssertNil(ISO8601.parse(text), text)
        }
    }

    func testRoundTripsAcrossCenturies() {
        for ms in stride(from: -2_000_000_000_000, through: 4_000_000_000_000, by: 123_456_789_017) {
            XCTAssertEqual(ISO8601.parse(ISO8601.format(epochMilliseconds: ms)), ms)
        }
    }

    /// The per-day cache must write exactly what the full computation writes, whatever the
    /// order of times: forwards, backwards, across seconds, days and the 9999/10000 boundary.
    func testDayCacheWritesWhatTheFullComputationWrites() {
        var cache = ISO8601.DayCache()
        var generator = SplitMix64(seed: 7)
        var times: [Int] = [
            0, 999, 1000, -1, -1000, -1001, 253_402_300_799_999, 253_402_300_800_000, 253_402_300_799_998,
        ]
        var t = 1_772_366_399_000
        for _ in 0..<20_000 {
            t += Int(generator.next() % (generator.next() % 10 == 0 ? 20_000_000 : 1500))
            times.append(t)
            if generator.next() % 50 == 0 { times.append(t - Int(generator.next() % 5000)) }
        }
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { out.deallocate() }
        for ms in times {
            let n = cache.write(epochMilliseconds: ms, to: out)
            XCTAssertEqual(
                String(decoding: UnsafeBufferPointer(start: out, count: n), as: UTF8.self),
                ISO8601.format(epochMilliseconds: ms), "\(ms)")
        }
    }
}
