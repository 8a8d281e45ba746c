import AVTCore
import AVTJSON
import XCTest

@testable import AVTReplay

/// The encoder reuses the JSON of a string attribute while the attribute holds the same String
/// (`EncodedStringCache`); whatever the strings do, a record must read exactly as if every
/// string were encoded afresh.
final class RecordEncoderTests: XCTestCase {
    private var encoder = RecordEncoder(trackerNames: ["content"], startTime: 0)

    private func record(_ attributes: AttributeMap) -> String {
        var w = JSONBuffer(capacity: 64)
        encoder.encode(Event(action: .ping, timestamp: 0, trackerId: 0, attributes: attributes), into: &w)
        let line = String(decoding: w.bytes, as: UTF8.self)
        return String(line[line.range(of: "\"attributes\":")!.upperBound...].dropLast(2))
    }

    func testTheSameStringGivesTheSameBytesAndAChangedOneItsNewBytes() {
        let id = "E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0"
        XCTAssertEqual(record([.senderId: .string(id)]), #"{"senderId":"E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0"}"#)
        XCTAssertEqual(record([.senderId: .string(id)]), #"{"senderId":"E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0"}"#)
        // Same length, other bytes; then a copy grown in place; then short (inline) strings.
        XCTAssertEqual(record([.senderId: .string(id.replacingOccurrences(of: "E", with: "F"))]), #"{"senderId":"F220A839-7B1D-4DAF-AF78-9F6AA1B965F4-0"}"#)
        var grown = id
        grown.append("1")
        XCTAssertEqual(record([.senderId: .string(grown)]), #"{"senderId":"E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-01"}"#)
        XCTAssertEqual(record([.senderId: .string("short")]), #"{"senderId":"short"}"#)
        XCTAssertEqual(record([.senderId: .string("shorT")]), #"{"senderId":"shorT"}"#)
        XCTAssertEqual(record([.senderId: .string("")]), #"{"senderId":""}"#)
    }

    func testAStringChangedInPlaceAfterItWasCachedIsEncodedAfresh() {
        var source = String(repeating: "https://example.com/", count: 2)
        XCTAssertEqual(record([.source: .string(source)]), #"{"source":"https://example.com/https://example.com/"}"#)
        // The cache holds the old value, so this append copies the storage: a new identity.
        source.append("x")
        XCTAssertEqual(record([.source: .string(source)]), #"{"source":"https://example.com/https://example.com/x"}"#)
    }

    func testEscapesLongStringsAndSeveralAttributesAreEachRight() {
        let long = String(repeating: "ab\"c", count: 60)
        let escapedLong = String(repeating: #"ab\"c"#, count: 60)
        for _ in 0..<2 {
            XCTAssertEqual(
                record([.source: .string(long), .title: .string("tab\there"), .playbackId: .string("p-1")]),
                #"{"playbackId":"p-1","source":""# + escapedLong + #"","title":"tab\there"}"#)
        }
        // The attributes swap values: each slot notices.
        XCTAssertEqual(record([.title: .string("p-1"), .playbackId: .string("tab\there")]), #"{"playbackId":"tab\there","title":"p-1"}"#)
    }
}
