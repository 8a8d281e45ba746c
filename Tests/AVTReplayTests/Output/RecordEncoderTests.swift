import AVTCore
import AVTJSON
import XCTest

@testable import AVTOutput

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
        XCTAssertEqual(
            record([.senderId: .string(id.replacingOccurrences(of: "E", with: "F"))]),
            #"{"senderId":"F220A839-7B1D-4DAF-AF78-9F6AA1B965F4-0"}"#)
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
        XCTAssertEqual(
            record([.title: .string("p-1"), .playbackId: .string("tab\there")]),
            #"{"playbackId":"tab\there","title":"p-1"}"#)
    }

    func testRepeatedTimesAndMetricNamesAreWrittenAsAfresh() {
        var encoder = RecordEncoder(trackerNames: ["content"], startTime: 1_772_366_400_000)
        var w = JSONBuffer(capacity: 64)
        let metrics: [Metric] = [
            .playTime(120, at: 5), .numPlays(at: 5), .numLoads(at: 5), .playTime(7, at: 999), .numEnds(at: 1_000),
            Metric(name: "Custom\"Name", kind: .gauge, value: .double(1.5), timestamp: 1_000),
        ]
        for metric in metrics { encoder.encode(metric, into: &w) }
        encoder.encode(Event(action: .end, timestamp: 1_000, trackerId: 0), into: &w)
        XCTAssertEqual(
            String(decoding: w.bytes, as: UTF8.self),
            """
            {"type":"metric","t":5,"time":"2026-03-01T12:00:00.005Z","name":"PlayTime","metricType":"gauge","value":120}
            {"type":"metric","t":5,"time":"2026-03-01T12:00:00.005Z","name":"NumPlays","metricType":"counter","value":1}
            {"type":"metric","t":5,"time":"2026-03-01T12:00:00.005Z","name":"NumLoads","metricType":"counter","value":1}
            {"type":"metric","t":999,"time":"2026-03-01T12:00:00.999Z","name":"PlayTime","metricType":"gauge","value":7}
            {"type":"metric","t":1000,"time":"2026-03-01T12:00:01.000Z","name":"NumEnds","metricType":"counter","value":1}
            {"type":"metric","t":1000,"time":"2026-03-01T12:00:01.000Z","name":"Custom\\"Name","metricType":"gauge","value":1.5}
            {"type":"event","t":1000,"time":"2026-03-01T12:00:01.000Z","action":"End","tracker":"content","attributes":{}}

            """)
    }

    func testCachedOrdersServeOnlyTheirOwnKeySequence() {
        // Same keys set in other orders, sequences that share their length, middle and last
        // key (so they share a slot), and a name first seen after orders were cached.
        let (a, b, c, d) = (
            Attribute("orderTestA"), Attribute("orderTestB"), Attribute("orderTestC"), Attribute("orderTestD")
        )
        func map(_ pairs: [(Attribute, AttributeValue)]) -> AttributeMap {
            var map = AttributeMap()
            for (key, value) in pairs { map[key] = value }
            return map
        }
        for _ in 0..<2 {
            XCTAssertEqual(
                record(map([(c, 3), (a, "1"), (b, true)])), #"{"orderTestA":"1","orderTestB":true,"orderTestC":3}"#)
            XCTAssertEqual(
                record(map([(a, "1"), (b, true), (c, 3)])), #"{"orderTestA":"1","orderTestB":true,"orderTestC":3}"#)
            XCTAssertEqual(record(map([(d, 4), (a, 1), (c, 3)])), #"{"orderTestA":1,"orderTestC":3,"orderTestD":4}"#)
            XCTAssertEqual(record(map([(b, 2), (a, 1), (c, 3)])), #"{"orderTestA":1,"orderTestB":2,"orderTestC":3}"#)
        }
        let late = Attribute("orderTestAB")  // new to the process here: re-ranks every key
        XCTAssertEqual(record(map([(b, 2), (late, 0), (a, 1)])), #"{"orderTestA":1,"\#(late.name)":0,"orderTestB":2}"#)
        XCTAssertEqual(
            record(map([(c, 3), (a, "1"), (b, true)])), #"{"orderTestA":"1","orderTestB":true,"orderTestC":3}"#)
    }

    /// Keys, string values and metric names are copied in words from padded caches: every length
    /// around the word (8) and padding (32) sizes and the string cache's slot (128), past all of
    /// them, and each as the first key (written without its comma) and a later one.
    func testKeysAndStringsOfEveryLengthAroundTheCopySizesAreWrittenExactly() {
        let lengths = [0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 125, 126, 127, 128, 129, 300]
        func text(_ n: Int, _ c: Character) -> String { String(repeating: c, count: n) }
        func json(_ s: String) -> String {
            var w = JSONWriter(capacity: 8)
            w.string(s)
            return String(decoding: w.bytes, as: UTF8.self)
        }
        for n in lengths {
            // "~" sorts after letters, "!" before: the long key is written last, then first.
            let late = Attribute("~" + text(n, "k"))
            let early = Attribute("!" + text(n, "e"))
            let value = text(n, "v")
            let quoted = text(n, "\"")
            for _ in 0..<2 {  // the second time from the caches
                XCTAssertEqual(
                    record([late: .string(value), .title: .string(quoted)]),
                    "{\"title\":" + json(quoted) + "," + json(late.name) + ":" + json(value) + "}", "length \(n)")
                XCTAssertEqual(
                    record([early: .int(n), .title: .string(value)]),
                    "{" + json(early.name) + ":\(n),\"title\":" + json(value) + "}", "length \(n)")
            }
            var w = JSONBuffer(capacity: 16)
            for _ in 0..<2 {
                encoder.encode(Metric(name: text(n, "m"), kind: .counter, value: .int(1), timestamp: 0), into: &w)
            }
            let line =
                #"{"type":"metric","t":0,"time":"1970-01-01T00:00:00.000Z","name":"# + json(text(n, "m"))
                + #","metricType":"counter","value":1}"#
            XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), line + "\n" + line + "\n", "length \(n)")
        }
    }

    /// Events longer than the order cache holds are ordered from the last long one (keys that
    /// went are dropped, new ones inserted): whatever comes and goes, the keys are in name
    /// order, as a plain sort of each event's names by their UTF-8 bytes gives.
    func testLongEventsAreInNameOrderWhateverKeysComeAndGo() {
        var rng = SplitMix64(seed: 27)
        let pool = (0..<300).map { "long\($0 * 7919 % 300)" } + ["Zlong", "élong", "long", "a", "long_1", "long10"]
        var present = Set(pool.prefix(70))
        for round in 0..<60 {
            // Mostly one new key per event, as a timeline that sets one per step; now and then
            // many changes at once, removals included.
            let changes = round % 10 == 9 ? 40 : 1
            for _ in 0..<changes {
                let name = pool[Int(rng.next() % UInt64(pool.count))]
                if present.contains(name), present.count > 66, rng.next() % 3 == 0 {
                    present.remove(name)
                } else {
                    present.insert(name)
                }
            }
            var attributes = AttributeMap()
            // Set in a scrambled order: the map keeps first-set order, the record name order.
            for name in present.sorted().shuffled(using: &rng) {
                attributes[Attribute(name)] = .int(name.utf8.count)
            }
            let expected =
                "{"
                + present.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                .map { "\"\($0)\":\($0.utf8.count)" }.joined(separator: ",") + "}"
            XCTAssertEqual(record(attributes), expected, "round \(round)")
        }
    }
}
