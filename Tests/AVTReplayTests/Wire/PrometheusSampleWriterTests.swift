import AVTCore
import XCTest

@testable import AVTOutput

/// The Prometheus data model (docs/prometheus.md): names, units, labels, and samples unique per
/// series and millisecond.
final class PrometheusSampleWriterTests: XCTestCase {
    private let start = 1_772_366_400_000

    private func lines(
        session: String? = nil, trackers: [String] = ["content"], labels: [(name: String, value: String)] = [],
        end: Int? = nil, _ body: (inout PrometheusSampleWriter, inout [String]) -> Void
    ) -> [String] {
        var records = RecordEncoder(trackerNames: trackers, startTime: start, session: session)
        (records.seriesSession, records.labels, records.endTime) = (session, labels, end)
        var writer = PrometheusSampleWriter(records: records, describes: false)
        var out: [String] = []
        body(&writer, &out)
        writer.finish(to: &out)
        return out
    }

    func testACounterFoldsItsSamplesOfOneMillisecondIntoTheLastAndStaysCumulative() {
        let out = lines { w, out in
            w.add(Event(action: .ping, timestamp: 10, trackerId: 0), to: &out)
            w.add(Event(action: .ping, timestamp: 10, trackerId: 0), to: &out)
            w.add(Event(action: .ping, timestamp: 11, trackerId: 0), to: &out)
        }
        XCTAssertEqual(
            out,
            [
                // Its 0 before the session's start, so `increase()` counts the first Ping too.
                #"oavt_events_total{action="Ping",tracker="content"} 0 1772366399.999"#,
                #"oavt_events_total{action="Ping",tracker="content"} 2 1772366400.010"#,
                #"oavt_events_total{action="Ping",tracker="content"} 3 1772366400.011"#,
            ])
    }

    /// The third sample says what the first does: it is folded into it.
    func testASecondGaugeSampleInOneMillisecondGetsSeqInsteadOfOverwritingTheFirst() {
        let out = lines { w, out in
            for ms in [1200, 300, 1200] {
                w.add(
                    Event(
                        action: .bufferFinish, timestamp: 5, trackerId: 0,
                        attributes: ["timeSinceBufferBegin": .int(ms)]),
                    to: &out)
            }
        }.filter { $0.hasPrefix("oavt_buffer_duration") }
        XCTAssertEqual(
            out,
            [
                #"oavt_buffer_duration_seconds{tracker="content"} 1.2 1772366400.005"#,
                #"oavt_buffer_duration_seconds{seq="1",tracker="content"} 0.3 1772366400.005"#,
            ])
    }

    func testMetricsBecomeSecondsGaugesAndCumulativeCounters() {
        let out = lines(session: "a \"b\"\\c\nd.json") { w, out in
            w.add(Metric.startTime(1150, at: 0), to: &out)
            w.add(Metric.numPlays(at: 0), to: &out)
            w.add(Metric.numPlays(at: 2000), to: &out)
            w.add(Metric(name: "HTTPErrorCount", kind: .counter, value: .double(2.5), timestamp: 2000), to: &out)
            w.add(Metric(name: "myRatio", kind: .gauge, value: .double(0.25), timestamp: 2000), to: &out)
        }
        let session = #"session="a \"b\"\\c\nd.json""#
        XCTAssertEqual(
            out,
            [
                "oavt_plays_total{\(session)} 0 1772366399.999",
                "oavt_start_time_seconds{\(session)} 1.15 1772366400.000",
                "oavt_plays_total{\(session)} 1 1772366400.000",
                "oavt_http_error_count_total{\(session)} 0 1772366399.999",
                "oavt_plays_total{\(session)} 2 1772366402.000",
                "oavt_http_error_count_total{\(session)} 2.5 1772366402.000",
                "oavt_my_ratio{\(session)} 0.25 1772366402.000",
            ])
    }

    func testEventAttributesWithAMeaningBecomeGaugesAndTheHubsTotalsCounters() {
        let out = lines { w, out in
            w.add(
                Event(
                    action: .start, timestamp: 0, trackerId: 0,
                    attributes: [
                        "timeSinceStreamLoad": .int(900), "bitrate": .int(2_500_000), "position": .int(1500),
                        "accumBufferTime": .int(250), "title": .string("not a label"), "isMuted": .bool(true),
                    ]), to: &out)
        }.filter { !$0.hasPrefix("oavt_startup_duration_seconds") }
        XCTAssertEqual(
            out,
            [
                #"oavt_events_total{action="Start",tracker="content"} 0 1772366399.999"#,
                "oavt_buffered_seconds_total 0 1772366399.999",
                #"oavt_events_total{action="Start",tracker="content"} 1 1772366400.000"#,
                // 2,500,000 bits per second are 312,500 bytes: Prometheus' base unit.
                #"oavt_bitrate_bytes_per_second{tracker="content"} 312500 1772366400.000"#,
                #"oavt_position_seconds{tracker="content"} 1.5 1772366400.000"#,
                "oavt_buffered_seconds_total 0.25 1772366400.000",
            ])
    }

    /// Each Start is one observation of the startup histogram, even two equal ones in one
    /// millisecond (a gauge would fold them into one sample); a point is all its buckets, the
    /// count and the sum at one time, starting from 0 before the session and repeated at its end.
    func testStartupsAreObservationsOfAHistogramWithVideoBuckets() {
        let startup = { (ms: Int, at: Int) in
            Event(action: .start, timestamp: at, trackerId: 0, attributes: ["timeSinceMediaRequest": .int(ms)])
        }
        let out = lines(end: start + 60_000) { w, out in
            w.add(startup(700, 10), to: &out)
            w.add(startup(700, 10), to: &out)
            // No timeSinceMediaRequest: the StreamLoad's time, as OpenAVT's StartTime.
            w.add(
                Event(action: .start, timestamp: 20, trackerId: 0, attributes: ["timeSinceStreamLoad": .int(20_000)]),
                to: &out)
            w.add(Event(action: .start, timestamp: 30, trackerId: 0), to: &out)
        }.filter { $0.hasPrefix("oavt_startup_duration_seconds") }
        func point(_ buckets: [Int], count: Int, sum: String, at stamp: String) -> [String] {
            let bounds = ["0.25", "0.5", "1.0", "2.0", "4.0", "8.0", "16.0", "+Inf"]
            return zip(bounds, buckets + [count]).map { bound, n in
                #"oavt_startup_duration_seconds_bucket{le="\#(bound)",tracker="content"} \#(n) \#(stamp)"#
            } + [
                #"oavt_startup_duration_seconds_count{tracker="content"} \#(count) \#(stamp)"#,
                #"oavt_startup_duration_seconds_sum{tracker="content"} \#(sum) \#(stamp)"#,
            ]
        }
        XCTAssertEqual(
            out,
            point([0, 0, 0, 0, 0, 0, 0], count: 0, sum: "0", at: "1772366399.999")
                + point([0, 0, 2, 2, 2, 2, 2], count: 2, sum: "1.4", at: "1772366400.010")
                + point([0, 0, 2, 2, 2, 2, 2], count: 3, sum: "21.4", at: "1772366400.020")
                + point([0, 0, 2, 2, 2, 2, 2], count: 3, sum: "21.4", at: "1772366460.000"))
    }

    /// A counter's last value is repeated at the session's end, so `increase()` evaluated there
    /// does not extrapolate past it: every counted event, and none more.
    func testCountersEndWithTheirLastValueAtTheSessionsEnd() {
        let out = lines(end: start + 60_000) { w, out in
            w.add(Event(action: .start, timestamp: 0, trackerId: 0), to: &out)
            w.add(Event(action: .ping, timestamp: 30_000, trackerId: 0), to: &out)
            w.add(Metric.startTime(900, at: 30_000), to: &out)
        }
        XCTAssertEqual(
            out,
            [
                #"oavt_events_total{action="Start",tracker="content"} 0 1772366399.999"#,
                #"oavt_events_total{action="Start",tracker="content"} 1 1772366400.000"#,
                #"oavt_events_total{action="Ping",tracker="content"} 0 1772366399.999"#,
                #"oavt_events_total{action="Ping",tracker="content"} 1 1772366430.000"#,
                "oavt_start_time_seconds 0.9 1772366430.000",
                // Gauges are not repeated: a gauge says what happened when it happened.
                #"oavt_events_total{action="Start",tracker="content"} 1 1772366460.000"#,
                #"oavt_events_total{action="Ping",tracker="content"} 1 1772366460.000"#,
            ])
    }

    /// PlayTime and RebufferTime stay gauges, and their running sums are counters in seconds.
    func testPlayAndRebufferTimeAlsoAddUpInSecondsTotalCounters() {
        let out = lines { w, out in
            w.add(Metric(name: "PlayTime", kind: .gauge, value: .int(1500), timestamp: 1000), to: &out)
            w.add(Metric(name: "RebufferTime", kind: .gauge, value: .int(300), timestamp: 2000), to: &out)
            w.add(Metric(name: "PlayTime", kind: .gauge, value: .int(100), timestamp: 3000), to: &out)
            w.add(Metric(name: "PlayTime", kind: .gauge, value: .int(200), timestamp: 4000), to: &out)
        }.filter { !$0.contains(" 0 1772366399.999") }
        XCTAssertEqual(
            out,
            [
                "oavt_play_time_seconds 1.5 1772366401.000", "oavt_played_seconds_total 1.5 1772366401.000",
                "oavt_rebuffer_time_seconds 0.3 1772366402.000", "oavt_rebuffered_seconds_total 0.3 1772366402.000",
                "oavt_play_time_seconds 0.1 1772366403.000", "oavt_played_seconds_total 1.6 1772366403.000",
                // 1.8, not 1.6 + 0.2 = 1.8000000000000003: the sum is kept in milliseconds.
                "oavt_play_time_seconds 0.2 1772366404.000", "oavt_played_seconds_total 1.8 1772366404.000",
                "oavt_rebuffered_seconds_total 0.3 1772366404.000",
            ])
    }

    func testLabelsGoOnEverySeriesBesideTheSession() {
        let out = lines(session: "a/s1.json", labels: [("run", "b"), ("env", "ci")]) { w, out in
            w.add(Metric.startTime(1150, at: 0), to: &out)
        }
        XCTAssertEqual(out, [#"oavt_start_time_seconds{env="ci",run="b",session="a/s1.json"} 1.15 1772366400.000"#])
    }

    func testDescribingWritesEachFamilysMetadataOnce() {
        var writer = PrometheusSampleWriter(
            records: RecordEncoder(trackerNames: [], startTime: 0), describes: true)
        var out: [String] = []
        writer.add(Metric.startTime(1, at: 0), to: &out)
        writer.add(Metric.startTime(2, at: 1), to: &out)
        writer.finish(to: &out)
        XCTAssertEqual(
            out,
            [
                "# HELP oavt_start_time_seconds OpenAVT StartTime metric: startup of a play",
                "# TYPE oavt_start_time_seconds gauge", "# UNIT oavt_start_time_seconds seconds",
                "oavt_start_time_seconds 0.001 0.000", "oavt_start_time_seconds 0.002 0.001",
            ])
    }

    /// Prometheus reads an OpenMetrics timestamp as float seconds and keeps `int64(seconds * 1000)`
    /// (model/textparse/openmetricsparse.go); three decimals must land on the same millisecond.
    func testTimestampsReadBackToTheSameMillisecond() {
        XCTAssertEqual(PrometheusSampleWriter.timestamp(0), "0.000")
        XCTAssertEqual(PrometheusSampleWriter.timestamp(-1), "-0.001")
        XCTAssertEqual(PrometheusSampleWriter.timestamp(1_772_366_400_050), "1772366400.050")
        for base in [1_772_366_400_000, 1_700_000_000_000, 4_102_444_800_000] {
            for ms in base..<(base + 1000) {
                let seconds = Double(PrometheusSampleWriter.timestamp(ms))!
                XCTAssertEqual(Int(seconds * 1000), ms)
            }
        }
    }

    func testValuesUseOpenMetricsSpellings() {
        XCTAssertEqual(PrometheusSampleWriter.number(3), "3")
        XCTAssertEqual(PrometheusSampleWriter.number(-0.5), "-0.5")
        XCTAssertEqual(PrometheusSampleWriter.number(.nan), "NaN")
        XCTAssertEqual(PrometheusSampleWriter.number(.infinity), "+Inf")
        XCTAssertEqual(PrometheusSampleWriter.number(-.infinity), "-Inf")
        XCTAssertEqual(PrometheusSampleWriter.number(1e300), "1e+300")
    }

    func testSnakeCase() {
        XCTAssertEqual(PrometheusFamily.snakeCase("StartTime"), "start_time")
        XCTAssertEqual(PrometheusFamily.snakeCase("HTTPCode"), "http_code")
        XCTAssertEqual(PrometheusFamily.snakeCase("numAds2"), "num_ads2")
        XCTAssertEqual(PrometheusFamily.snakeCase("a.b-c"), "a_b_c")
        XCTAssertEqual(PrometheusFamily.snakeCase(""), "_")
    }

    func testEveryFamilyNameIsValidAndUniqueAndCarriesItsUnit() {
        let names = PrometheusFamily.known.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        let samples = PrometheusFamily.known.map(\.sampleName)
        XCTAssertTrue(Set(samples).isDisjoint(with: names.filter { !samples.contains($0) }))
        for family in PrometheusFamily.known {
            XCTAssertTrue(family.name.hasPrefix("oavt_"), family.name)
            XCTAssertTrue(family.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, family.name)
            XCTAssertFalse(family.name.hasSuffix("_total"), family.name)
            if !family.unit.isEmpty { XCTAssertTrue(family.name.hasSuffix("_" + family.unit), family.name) }
            XCTAssertFalse(family.name.contains("millisecond"), family.name)
        }
    }
}
