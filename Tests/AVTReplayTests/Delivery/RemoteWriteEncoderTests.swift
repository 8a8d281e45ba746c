import AVTCore
import AVTReplay
import AVTTimeline
import Foundation
import XCTest

@testable import AVTDelivery
@testable import AVTOutput

/// The protobuf `WriteRequest` of remote write 1.0 (prompb/remote.proto, types.proto), written
/// from samples as numbers: the bytes worked by hand, and the same bytes as the plain encoder
/// (`RemoteWriteRequest`) writes from the samples' OpenMetrics lines.
final class RemoteWriteEncoderTests: XCTestCase {
    private func table(_ texts: [String]) -> RemoteWriteSeriesTable {
        var table = RemoteWriteSeriesTable()
        for text in texts { table.add(text: text) }
        table.rank()
        return table
    }

    private func sample(_ series: Int32, _ value: Double, _ ms: Int) -> PrometheusSample {
        PrometheusSample(series: series, value: value, milliseconds: ms)
    }

    func testBytesWorkedByHand() {
        var encoder = RemoteWriteEncoder()
        let request = encoder.request([sample(0, 1.0, 5)][...], series: table(["a"]))
        // Label {1: "__name__", 2: "a"}: 0A 08 "__name__" 12 01 "a" (13 bytes).
        let label: [UInt8] = [0x0A, 0x08] + Array("__name__".utf8) + [0x12, 0x01, 0x61]
        // Sample {1: double 1.0 (fixed64, little-endian), 2: varint 5}: 11 bytes.
        let sample: [UInt8] = [0x09, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0x10, 0x05]
        // TimeSeries {1: label, 2: sample}: 28 bytes; WriteRequest {1: series}.
        let series: [UInt8] = [0x0A, 0x0D] + label + [0x12, 0x0B] + sample
        XCTAssertEqual(request, [0x0A, 0x1C] + series)
    }

    func testSeriesAreGroupedSortedAndTheirSamplesInTimeOrder() throws {
        let series = table([#"x{tracker="b"}"#, #"x{tracker="a"}"#, "w"])
        var encoder = RemoteWriteEncoder()
        let request = encoder.request(
            [sample(0, 2, 20), sample(1, -1.5, -3), sample(0, 1, 10), sample(2, .infinity, 1_772_366_400_000)][...],
            series: series)
        XCTAssertEqual(
            try RemoteWriteDecoder.writeRequest(request),
            [
                .init(labels: ["__name__=w"], samples: [.init(value: .infinity, milliseconds: 1_772_366_400_000)]),
                .init(labels: ["__name__=x", "tracker=a"], samples: [.init(value: -1.5, milliseconds: -3)]),
                .init(
                    labels: ["__name__=x", "tracker=b"],
                    samples: [.init(value: 1, milliseconds: 10), .init(value: 2, milliseconds: 20)]),
            ])
    }

    /// Series that print apart but carry the same labels (`__name__` sorted among upper-case
    /// names) are one `TimeSeries`; equal times keep their order; long labels and negative
    /// times take several varint bytes; every batch size gives the reference's bytes.
    func testTheSameBytesAsThePlainEncoderFromTheLines() throws {
        let texts = [
            #"x{Zone="1",tracker="b"}"#, #"x{tracker="a"}"#, "w", #"x{tracker="b",Zone="1"}"#,
            "v{long=\"" + String(repeating: "é\\\"", count: 200) + "\"}",
        ]
        let series = table(texts)
        var samples: [PrometheusSample] = []
        var generator = SplitMix64(seed: 7)
        for i in 0..<3000 {
            let ms = Int(generator.next() % 50) - 25 + (i % 7 == 0 ? -1_000_000_000_000_000 : 0)
            samples.append(sample(Int32(generator.next() % 5), Double(i) / 8, ms))
        }
        let lines = samples.map {
            texts[Int($0.series)] + " " + PrometheusSampleWriter.number($0.value) + " "
                + PrometheusSampleWriter.timestamp($0.milliseconds)
        }
        var encoder = RemoteWriteEncoder()
        for size in [1, 2, 7, 100, 3000] {
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + size)
                let reference = try Self.reference(lines[start..<end])
                XCTAssertTrue(encoder.request(samples[start..<end], series: series) == reference, "\(start) of \(size)")
                start = end
            }
        }
        XCTAssertEqual(series.groups.count, 4)
    }

    /// A replay's samples, every fixture, as one batch and in batches of 100: the bytes the
    /// plain encoder writes from the lines `--format openmetrics` prints; the body is that
    /// request, snappy-compressed.
    func testAReplaysSamplesGiveThePlainEncodersBytes() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../fixtures")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter {
            $0.hasSuffix(".json") && !$0.hasPrefix("precall")
        }.sorted()
        XCTAssertGreaterThan(names.count, 5)
        for name in names {
            let timeline = try TimelineDecoder.decode(
                Array(try Data(contentsOf: fixtures.appendingPathComponent(name))), file: name)
            let records = Records()
            try Replayer.replay(timeline, backend: records, identifiers: SeededUUIDGenerator(seed: 0))
            var recordEncoder = RecordEncoder(
                trackerNames: timeline.settings.trackers.map(\.name), startTime: 1_772_366_400_000, session: name)
            recordEncoder.seriesSession = name
            recordEncoder.labels = [("Run", "a\"b")]
            var writer = PrometheusSampleWriter(records: recordEncoder, describes: false)
            var samples: [PrometheusSample] = []
            for record in records.all {
                switch record {
                case .event(let event): writer.add(event, to: &samples)
                case .metric(let metric): writer.add(metric, to: &samples)
                }
            }
            writer.finish(to: &samples)
            let lines = samples.map(writer.line)
            let series = table(writer.series)
            var encoder = RemoteWriteEncoder()
            for size in [samples.count, 100] {
                var start = 0
                while start < samples.count {
                    let end = min(samples.count, start + size)
                    let request = encoder.request(samples[start..<end], series: series)
                    XCTAssertTrue(request == (try Self.reference(lines[start..<end])), "\(name) \(start)")
                    let body = encoder.body(samples[start..<end], series: series)
                    XCTAssertTrue(try RemoteWriteDecoder.snappy(Array(body)) == request, name)
                    start = end
                }
            }
        }
    }

    private static func reference(_ lines: ArraySlice<String>) throws -> [UInt8] {
        let samples = try lines.map { try XCTUnwrap(PrometheusSampleLine($0), $0) }
        return RemoteWriteRequest(samples.map { ($0.labels, $0.value, $0.milliseconds) }).encoded()
    }

    /// A replay's records, in the order they came.
    private final class Records: Backend {
        enum Record {
            case event(Event)
            case metric(Metric)
        }
        var all: [Record] = []
        func instrumentReady(_ instrument: Instrument) {}
        func sendEvent(_ event: Event) { all.append(.event(event)) }
        func sendMetric(_ metric: Metric) { all.append(.metric(metric)) }
        func endOfService() {}
    }
}
