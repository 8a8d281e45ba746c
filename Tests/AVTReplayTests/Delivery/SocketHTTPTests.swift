import Foundation
import XCTest

@testable import AVTDelivery

#if canImport(Glibc)
import Glibc
#endif

/// What the plain-HTTP client makes of servers that answer early, late or never.
final class SocketHTTPTests: XCTestCase {
    /// A listening socket on a free loopback port; `serve` runs for each of the first
    /// `connections` connections, with its number.
    private func listener(connections: Int = 1, _ serve: (@Sendable (Int32, Int) -> Void)?) throws -> (
        fd: Int32, port: Int
    ) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        if let serve {
            Thread {
                for n in 0..<connections {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { return }
                    serve(client, n)
                    close(client)
                }
            }.start()
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    func testAServerThatNeverAnswersIsNamedWithTheWait() throws {
        // Connections queue in the backlog, so connect succeeds; nothing is ever read or answered.
        let (fd, port) = try listener(nil)
        defer { close(fd) }
        let result = SocketHTTP.post(
            URL(string: "http://127.0.0.1:\(port)/write")!, body: Data("m v=1i 1\n".utf8), headers: [:], timeout: 0.5)
        guard case .failure(let failure) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(failure.description, "no answer from 127.0.0.1:\(port) within 0.5 s")
    }

    func testARefusalBeforeALargeBodyIsReadIsTheAnswer() throws {
        // As InfluxDB does for an unknown database: answer 404 to the announced request and close,
        // never reading the body (a reset would follow any write of it).
        let (fd, port) = try listener { client, _ in
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(client, &byte, 1, 0) == 1 { head.append(byte) }
            var answer = Array(
                "HTTP/1.1 404 Not Found\r\nContent-Length: 35\r\nConnection: close\r\n\r\n{\"error\":\"database not found: x\"}\n\n"
                    .utf8)
            _ = send(client, &answer, answer.count, Int32(MSG_NOSIGNAL))
        }
        defer { close(fd) }
        let body = Data(repeating: UInt8(ascii: "x"), count: 4 << 20)
        let result = SocketHTTP.post(
            URL(string: "http://127.0.0.1:\(port)/write")!, body: body, headers: [:], timeout: 5)
        guard case .success(let response) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(
            HTTPBatchDecision.decide(result, records: 2), .rejected(reason: "HTTP 404: " + response.body.prefix(200)))
    }

    func testAServerThatRefusesTheExpectationGetsTheBodyAtOnce() throws {
        final class Seen: @unchecked Sendable { var heads: [String] = [] }
        let seen = Seen()
        let (fd, port) = try listener(connections: 2) { client, n in
            var request: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            // The first request is refused after its head; the second is read to its end.
            while true {
                if n == 0, request.firstRange(of: [13, 10, 13, 10]) != nil { break }
                if n == 1, let end = request.firstRange(of: [13, 10, 13, 10]), request.count >= end.upperBound + 100_000
                {
                    break
                }
                let got = recv(client, &chunk, chunk.count, 0)
                if got <= 0 { break }
                request.append(contentsOf: chunk[0..<got])
            }
            let head = String(decoding: request.prefix(300), as: UTF8.self)
            seen.heads.append(head)
            var answer = Array(
                (n == 0 ? "HTTP/1.1 417 Expectation Failed\r\n" : "HTTP/1.1 204 No Content\r\n")
                    .appending("Content-Length: 0\r\nConnection: close\r\n\r\n").utf8)
            _ = send(client, &answer, answer.count, Int32(MSG_NOSIGNAL))
        }
        defer { close(fd) }
        let result = SocketHTTP.post(
            URL(string: "http://127.0.0.1:\(port)/write")!, body: Data(repeating: 0x78, count: 100_000), headers: [:],
            timeout: 5)
        guard case .success(let response) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(seen.heads.count, 2)
        XCTAssertTrue(seen.heads[0].contains("Expect: 100-continue"))
        XCTAssertFalse(seen.heads[1].contains("Expect:"))
    }

    func testInterimAnswersComeBeforeTheFinalOne() {
        let response = SocketHTTP.parse(Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n".utf8))
        XCTAssertEqual(response?.status, 204)
    }
}
