import XCTest

@testable import AVTDelivery

/// The protobuf `WriteRequest` of remote write 1.0 (prompb/remote.proto, types.proto).
final class RemoteWriteRequestTests: XCTestCase {
    func testBytesWorkedByHand() {
        let request = RemoteWriteRequest([(labels: [("__name__", "a")], value: 1.0, milliseconds: 5)])
        // Label {1: "__name__", 2: "a"}: 0A 08 "__name__" 12 01 "a" (13 bytes).
        let label: [UInt8] = [0x0A, 0x08] + Array("__name__".utf8) + [0x12, 0x01, 0x61]
        // Sample {1: double 1.0 (fixed64, little-endian), 2: varint 5}: 11 bytes.
        let sample: [UInt8] = [0x09, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0x10, 0x05]
        // TimeSeries {1: label, 2: sample}: 28 bytes; WriteRequest {1: series}.
        let series: [UInt8] = [0x0A, 0x0D] + label + [0x12, 0x0B] + sample
        XCTAssertEqual(request.encoded(), [0x0A, 0x1C] + series)
    }

    func testSeriesAreGroupedSortedAndTheirSamplesInTimeOrder() throws {
        let request = RemoteWriteRequest([
            (labels: [("tracker", "b"), ("__name__", "x")], value: 2, milliseconds: 20),
            (labels: [("__name__", "x"), ("tracker", "a")], value: -1.5, milliseconds: -3),
            (labels: [("__name__", "x"), ("tracker", "b")], value: 1, milliseconds: 10),
            (labels: [("__name__", "w")], value: .infinity, milliseconds: 1_772_366_400_000),
        ])
        let decoded = try RemoteWriteDecoder.writeRequest(request.encoded())
        XCTAssertEqual(
            decoded,
            [
                .init(labels: ["__name__=w"], samples: [.init(value: .infinity, milliseconds: 1_772_366_400_000)]),
                .init(labels: ["__name__=x", "tracker=a"], samples: [.init(value: -1.5, milliseconds: -3)]),
                .init(
                    labels: ["__name__=x", "tracker=b"],
                    samples: [.init(value: 1, milliseconds: 10), .init(value: 2, milliseconds: 20)]),
            ])
    }
}
