import AVTDelivery
import Foundation
import XCTest

/// "Destination down" (docs/destinations.md, "A destination that stays down"): after a batch
/// used up its attempts, later batches get one attempt each until the server answers again; any
/// answer lifts it, a 503 as much as a 204. A local server answers by request count, so nothing
/// here waits for a time.
final class DeliveryOutageTests: XCTestCase {
    private let environment = ["INFLUX_TOKEN": "t"]

    private func lines(_ request: MockHTTPServer.Request) throws -> [String] {
        let body =
            request.headers["content-encoding"] == "gzip"
            ? try XCTUnwrap(Gzip.decompress(request.body), "body is gzip") : request.body
        return String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A server starting again answers 503 before it takes writes (Prometheus replaying its WAL):
    /// batch 1 uses its 3 attempts on 503s and the destination is down; batch 2's first 503 is an
    /// answer, so it gets its 3 attempts again and the third is taken. Only batch 1 is dead-lettered,
    /// and `send` delivers it: the server holds every point once.
    func testA503AfterTheOutageLiftsItAndEverythingIsDelivered() throws {
        let script = Array(repeating: (status: 503, headers: [String: String]()), count: 5)
        let server = try MockHTTPServer(script: script, fallback: 204)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let destination = "influxdb2://127.0.0.1:\(server.port)?org=o&bucket=b"
        let records = try CLI.run(["run", "fixtures/happy-path.json"]).stdout.split(separator: "\n").count
        XCTAssertEqual(records, 33)
        let run = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", destination, "--delivery-batch", "5", "--delivery-attempts",
                "3", "--delivery-retry-delay", "1", "--dead-letter", dead,
            ], environment: environment)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertTrue(run.stderr.contains("28 points delivered, 5 undelivered"), run.stderr)
        let kept = try DeadLetterEntry.read(path: dead)
        XCTAssertEqual(kept.count, 5, "only the batch that found the outage")
        XCTAssertTrue(kept.allSatisfy { $0.reason.hasSuffix("(after 3 attempts)") }, "\(kept.map(\.reason))")

        let send = try CLI.run(["send", dead, "--to", destination], environment: environment)
        XCTAssertEqual(send.status, 0, send.stderr)
        // Requests 1 to 5 were answered 503, every later one 204.
        let taken = try server.requests.dropFirst(5).flatMap { try lines($0) }
        XCTAssertEqual(taken.count, records)
        XCTAssertEqual(Set(taken).count, records, "every point once")
    }
}
