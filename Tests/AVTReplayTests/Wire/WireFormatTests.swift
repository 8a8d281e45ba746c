import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// `--format influx` and `--format graphite`: exactly what those backends send.
final class WireFormatTests: XCTestCase {
    private let records = RecordEncoder(trackerNames: ["con tent"], startTime: 1_772_366_400_000)

    private func influx(
        _ configure: (inout InfluxLineEncoder) -> Void = { _ in },
        lines body: (inout InfluxLineWriter, inout JSONBuffer) -> Void
    ) -> String {
        var encoder = InfluxLineEncoder()
        configure(&encoder)
        var writer = InfluxLineWriter(encoder: encoder, records: records)
        var buffer = JSONBuffer()
        body(&writer, &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    private let event = Event(
        action: Action("Custom Action"), timestamp: 1500, trackerId: 0,
        attributes: [
            "count": .int(3), "ratio": .double(0.5), "ok": .bool(true), "title": .string("say \"hi\"\\ now\nplease"),
            "key with,comma=eq": .int(1),
        ])

    func testEventLinesEscapeEverythingAndTypeIntegers() {
        let line = influx { w, b in w.write(event, into: &b) }
        XCTAssertEqual(
            line,
            #"OAVT_EVENTS,action=Custom\ Action,tracker=con\ tent count=3i,key\ with\,comma\=eq=1i,ok=true,ratio=0.5,title="say \"hi\"\\ now"#
                + "\n" + #"please" 1772366401500"# + "\n")
    }

    func testMetricLinesAndMeasurementNames() {
        let line = influx {
            $0.metricsMeasurement = "my metrics"
        } lines: { w, b in
            w.write(Metric.startTime(1400, at: 1400), into: &b)
        }
        XCTAssertEqual(line, "my\\ metrics StartTime=1400i 1772366401400\n")
    }

    func testPointsOfOneInstantAreMadeUnique() {
        let metric = Metric.numPlays(at: 1000)
        let ms = influx { w, b in for _ in 0..<3 { w.write(metric, into: &b) } }
        XCTAssertEqual(
            ms.split(separator: "\n"),
            [
                "OAVT_METRICS NumPlays=1i 1772366401000", "OAVT_METRICS,seq=1 NumPlays=1i 1772366401000",
                "OAVT_METRICS,seq=2 NumPlays=1i 1772366401000",
            ])
        let ns = influx {
            $0.precision = .ns
        } lines: { w, b in
            for _ in 0..<3 { w.write(metric, into: &b) }
        }
        XCTAssertEqual(
            ns.split(separator: "\n").map { $0.split(separator: " ").last! },
            ["1772366401000000000", "1772366401000000001", "1772366401000000002"])
        let seconds = influx {
            $0.precision = .s
        } lines: { w, b in
            w.write(metric, into: &b)
        }
        XCTAssertEqual(seconds, "OAVT_METRICS NumPlays=1i 1772366401\n")
    }

    func testCompatReproducesUpstreamBytes() {
        let lines = influx {
            $0.compat = true
        } lines: { w, b in
            w.write(Metric.startTime(1400, at: 1400), into: &b)
            w.write(
                Event(
                    action: .start, timestamp: 1400, trackerId: 0,
                    attributes: ["countStarts": .int(1), "senderId": .string("X-0")]), into: &b)
        }
        XCTAssertEqual(
            lines,
            "OAVT_METRICS StartTime=1400 1772366401400000000\nOAVT_EVENTS action=\"Start\",countStarts=1,senderId=\"X-0\" 1772366401400000000\n"
        )
    }

    func testEveryPointOfWholeReplaysIsUniqueAtEveryPrecision() throws {
        for precision in InfluxLineEncoder.Precision.allCases {
            for fixture in Streaming.fixtures {
                let timeline = try TimelineDecoder.decode(
                    Array(try Data(contentsOf: fixture)), file: fixture.lastPathComponent)
                var encoder = InfluxLineEncoder()
                encoder.precision = precision
                let sink = MemorySink()
                let backend = InfluxLineBackend(
                    sink: sink, encoder: encoder,
                    records: RecordEncoder(
                        trackerNames: timeline.settings.trackers.map(\.name), startTime: timeline.settings.startTime))
                var source = DocumentSource(timeline, name: fixture.lastPathComponent)
                _ = try Replayer.replay(&source, options: RunOptions(), backend: backend)
                backend.endOfService()
                let lines = sink.text.split(separator: "\n")
                // InfluxDB's identity of a point: measurement and tag set (before the first
                // unescaped space) plus the timestamp.
                let identities = lines.map { line -> String in
                    let parts = line.split(separator: " ")
                    return String(parts[0]) + " " + String(parts[parts.count - 1])
                }
                XCTAssertEqual(Set(identities).count, lines.count, "\(precision) \(fixture.lastPathComponent)")
            }
        }
    }

    private func graphite(
        _ configure: (inout GraphiteEncoder) -> Void, lines body: (inout GraphiteAggregator, inout JSONBuffer) -> Void
    ) -> String {
        var encoder = GraphiteEncoder()
        configure(&encoder)
        var aggregator = GraphiteAggregator(encoder: encoder, startTime: 1_772_366_400_000)
        var buffer = JSONBuffer()
        body(&aggregator, &buffer)
        aggregator.flush(into: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    func testGraphiteLinesSanitiseAndSkipNaNAndEventsByDefault() {
        let text = graphite {
            $0.prefix = "team.OAVT"
        } lines: { a, b in
            a.add(Metric(name: "Start Time!", kind: .gauge, value: .int(1400), timestamp: 1400), into: &b)
            a.add(Metric(name: "Ratio", kind: .gauge, value: .double(.nan), timestamp: 1400), into: &b)
            a.add(Event(action: .start, timestamp: 1400), into: &b)
        }
        XCTAssertEqual(text, "team.OAVT.Start_Time_ 1400 1772366401\n")
        let events = graphite {
            $0.events = true
        } lines: { a, b in
            a.add(Event(action: .start, timestamp: 1400), into: &b)
        }
        XCTAssertEqual(events, "OAVT.events.Start 1 1772366401\n")
    }

    func testOneValuePerPathAndStepCountersSummedGaugesByChoice() {
        func run(_ gauges: GraphiteEncoder.GaugeAggregation, step: Int = 1) -> String {
            graphite {
                $0.gauges = gauges
                $0.step = step
            } lines: { a, b in
                a.add(Metric.numPlays(at: 100), into: &b)
                a.add(Metric.playTime(300, at: 200), into: &b)
                a.add(Metric.numPlays(at: 900), into: &b)
                a.add(Metric.playTime(500, at: 900), into: &b)
                a.add(Metric.playTime(700, at: 2500), into: &b)
            }
        }
        XCTAssertEqual(
            run(.last), "OAVT.NumPlays 2 1772366400\nOAVT.PlayTime 500 1772366400\nOAVT.PlayTime 700 1772366402\n")
        XCTAssertTrue(run(.sum).contains("OAVT.PlayTime 800 1772366400"))
        XCTAssertTrue(run(.avg).contains("OAVT.PlayTime 400 1772366400"))
        XCTAssertTrue(run(.max).contains("OAVT.PlayTime 500 1772366400"))
        XCTAssertTrue(run(.min).contains("OAVT.PlayTime 300 1772366400"))
        XCTAssertEqual(
            run(.sum, step: 60), "OAVT.NumPlays 2 1772366400\nOAVT.PlayTime 1500 1772366400\n", "one 60 s step")
    }
}
