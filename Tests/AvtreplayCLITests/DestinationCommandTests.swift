import Foundation
import XCTest

/// `--to` values through the command line: the words and exit codes users get for bad ones,
/// the same from `run` and `send`.
final class DestinationCommandTests: XCTestCase {
    private let timeline = "fixtures/happy-path.json"
    private let noCredentials = ["INFLUX_TOKEN": "", "NEW_RELIC_LICENSE_KEY": ""]

    func testBadDestinationsAreBadInputWithTheirReason() throws {
        let cases: [(String, String)] = [
            ("bogus", "unknown destination: expected stdout, file:PATH, influxdb://HOST:PORT/DB"),
            ("influxdb://h:1", "missing database: influxdb://HOST:PORT/DB"),
            ("influxdb2://h:1?org=o&bucket=b", "set INFLUX_TOKEN"),
            ("graphite+tcp://h", "expected graphite://HOST[:PORT] or graphite+udp://HOST[:PORT]"),
            ("newrelic://abc", "missing account id"),
            ("mediastream+ftp://h", "expected mediastream+http://HOST/PATH or mediastream+https://HOST/PATH"),
        ]
        for (destination, reason) in cases {
            let result = try CLI.run(["run", timeline, "--to", destination], environment: noCredentials)
            XCTAssertEqual(result.status, 2, destination)
            XCTAssertEqual(result.stdout, "", destination)
            XCTAssertTrue(result.stderr.contains("error: cannot write \(destination): "), result.stderr)
            XCTAssertTrue(result.stderr.contains(reason), result.stderr)
        }
    }

    func testOneStreamOnly() throws {
        for arguments in [["--to", "stdout", "--to", "file:/tmp/x"], ["--to", "stdout", "-o", "/tmp/x"]] {
            let result = try CLI.run(["run", timeline] + arguments)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(
                result.stderr.contains("Give one of stdout, file:PATH or -o: records go to one file or stream."),
                result.stderr)
        }
    }

    func testStdoutAndFileDestinationsWriteTheStream() throws {
        let plain = try CLI.run(["run", timeline])
        XCTAssertEqual(try CLI.run(["run", timeline, "--to", "stdout"]).stdout, plain.stdout)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.jsonl").path
        let file = try CLI.run(["run", timeline, "--to", "file:" + path])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(file.stdout, "")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), plain.stdout)
    }

    func testSendRejectsADestinationOfAnotherKindForTheLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("send-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dead = directory.appendingPathComponent("dead.jsonl").path
        let entry = #"{"to":"influxdb://127.0.0.1:1/db","format":"influx/ms","reason":"r","line":"m v=1 1"}"# + "\n"
        try entry.write(toFile: dead, atomically: true, encoding: .utf8)
        let result = try CLI.run(["send", dead, "--to", "graphite://127.0.0.1:1"], in: directory)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.contains("error: cannot write graphite://127.0.0.1:1: expected influxdb://HOST:PORT/DB"),
            result.stderr)
        let unknown = #"{"to":"influxdb://127.0.0.1:1/db","format":"csv","reason":"r","line":"x"}"# + "\n"
        try unknown.write(toFile: dead, atomically: true, encoding: .utf8)
        let format = try CLI.run(["send", dead], in: directory)
        XCTAssertEqual(format.status, 2)
        XCTAssertTrue(format.stderr.contains("error: \(dead): unknown format \"csv\""), format.stderr)
    }
}
