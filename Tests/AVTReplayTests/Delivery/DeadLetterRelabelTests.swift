import XCTest

@testable import AVTDelivery

/// `send --label`: each format's lines get the labels where `run --label` writes them
/// (docs/destinations.md, "Telling sessions and runs apart").
final class DeadLetterRelabelTests: XCTestCase {
    private let relabel = DeadLetterRelabel(labels: [("run", "b 1"), ("env", "ci")])

    func testPrometheusSamplesGetTheLabelsSortedAndAnOldValueReplaced() {
        let lines = [
            #"oavt_events_total{action="Start",run="a",tracker="c"} 1 1772366400.000"#,
            "oavt_plays_total 2 1772366400.500",
        ]
        XCTAssertEqual(
            relabel.apply(to: lines, format: "openmetrics"),
            [
                #"oavt_events_total{action="Start",env="ci",run="b 1",tracker="c"} 1 1772366400.000"#,
                #"oavt_plays_total{env="ci",run="b 1"} 2 1772366400.500"#,
            ])
    }

    func testInfluxLinesGetEscapedTags() {
        let lines = [
            #"OAVT_EVENTS,action=Start,run=a\ x,tracker=c title="a b",bitrate=5i 1772366400000"#,
            "OAVT_METRICS value=1i 1772366400000",
        ]
        XCTAssertEqual(
            relabel.apply(to: lines, format: "influx/ms"),
            [
                #"OAVT_EVENTS,action=Start,tracker=c,run=b\ 1,env=ci title="a b",bitrate=5i 1772366400000"#,
                #"OAVT_METRICS,run=b\ 1,env=ci value=1i 1772366400000"#,
            ])
    }

    func testGraphitePathsGetTheValuesAfterThePrefix() {
        XCTAssertEqual(
            relabel.apply(
                to: ["OAVT.s1_json.NumPlays 1 1772366400", "other.NumPlays 1 1772366400"], format: "graphite"),
            ["OAVT.b_1.ci.s1_json.NumPlays 1 1772366400", "other.NumPlays 1 1772366400"])
        let prefixed = DeadLetterRelabel(labels: [("run", "x")], graphitePrefix: "a.b")
        XCTAssertEqual(
            prefixed.apply(to: ["a.b.NumPlays 1 1772366400"], format: "graphite"), ["a.b.x.NumPlays 1 1772366400"])
    }

    func testOtherFormatsAndNoLabelsLeaveLinesAsTheyAre() {
        let line = #"{"eventType":"OAVT"}"#
        XCTAssertEqual(relabel.apply(to: [line], format: "newrelic-events"), [line])
        XCTAssertEqual(DeadLetterRelabel(labels: []).apply(to: ["x 1 2"], format: "openmetrics"), ["x 1 2"])
    }
}
