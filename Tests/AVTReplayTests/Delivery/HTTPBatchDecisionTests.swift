import XCTest

@testable import AVTDelivery

/// The one decision every HTTP destination takes on a batch's answer.
final class HTTPBatchDecisionTests: XCTestCase {
    private func answer(_ status: Int, body: String = "oops", retryAfter: String? = nil)
        -> Result<HTTPClient.Response, HTTPClient.Failure>
    {
        .success(
            HTTPClient.Response(status: status, headers: retryAfter.map { ["retry-after": $0] } ?? [:], body: body))
    }

    func testSuccessIsDelivered() {
        for status in [200, 202, 204, 299] {
            XCTAssertEqual(HTTPBatchDecision.decide(answer(status), records: 3), .delivered, "\(status)")
        }
    }

    func testTooLargeSplitsUntilOneRecordIsLeft() {
        XCTAssertEqual(HTTPBatchDecision.decide(answer(413), records: 2), .split)
        XCTAssertEqual(HTTPBatchDecision.decide(answer(413), records: 1), .rejected(reason: "HTTP 413: oops"))
    }

    func testTransientAnswersAreRetriedWithTheServersDelay() {
        for status in [408, 429, 500, 502, 503, 504] {
            XCTAssertEqual(
                HTTPBatchDecision.decide(answer(status, retryAfter: "7"), records: 1),
                .retry(reason: "HTTP \(status): oops", retryAfter: "7"), "\(status)")
        }
        XCTAssertEqual(
            HTTPBatchDecision.decide(.failure(.transport("Connection refused")), records: 5),
            .retry(reason: "Connection refused", retryAfter: nil))
    }

    func testOtherAnswersAreRejectedWithWhatTheServerSaid() {
        for status in [301, 400, 401, 403, 404, 422] {
            XCTAssertEqual(
                HTTPBatchDecision.decide(answer(status), records: 4), .rejected(reason: "HTTP \(status): oops"))
        }
        let long = String(repeating: "x", count: 500)
        XCTAssertEqual(
            HTTPBatchDecision.decide(answer(401, body: long), records: 1),
            .rejected(reason: "HTTP 401: " + long.prefix(200)))
        XCTAssertEqual(
            HTTPBatchDecision.decide(
                answer(404, body: #"{"error":"database not found"}"#), records: 1, message: InfluxDelivery.errorMessage),
            .rejected(reason: "HTTP 404: database not found"))
    }
}
