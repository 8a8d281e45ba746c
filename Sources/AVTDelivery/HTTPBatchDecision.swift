/// What an HTTP answer to a batch of records means for that batch, the same for every HTTP
/// destination (InfluxDB, New Relic, Mediastream collectors): keep it, send its halves, try it
/// again, or keep its records as dead letters.
package enum HTTPBatchDecision: Equatable {
    /// 2xx: the server took the batch.
    case delivered
    /// 413 for a batch of more than one record: each half is sent on its own (a single record
    /// the server finds too large is `rejected`).
    case split
    /// A network failure, a timeout, 408, 429 or a 5xx: the same batch may succeed later, after
    /// the server's Retry-After when it gives one.
    case retry(reason: String, retryAfter: String?)
    /// Any other answer: sending the same records again would get the same answer.
    case rejected(reason: String)

    /// Whether the server answered (any status): an answer lifts "destination down" (see
    /// `DeliveryOutage`), a network failure or timeout does not.
    static func answered(_ result: Result<HTTPClient.Response, HTTPClient.Failure>) -> Bool {
        if case .success = result { return true }
        return false
    }

    /// Decides for one attempt. `message` extracts what the server said from an error body.
    static func decide(
        _ result: Result<HTTPClient.Response, HTTPClient.Failure>, records: Int,
        message: (String) -> String = { String($0.prefix(200)) }
    ) -> HTTPBatchDecision {
        switch result {
        case .failure(let failure):
            return .retry(reason: failure.description, retryAfter: nil)
        case .success(let response):
            let status = response.status
            if (200..<300).contains(status) { return .delivered }
            let reason = "HTTP \(status): \(message(response.body))"
            if status == 413 && records > 1 { return .split }
            if status == 408 || status == 429 || status >= 500 {
                return .retry(reason: reason, retryAfter: response.headers["retry-after"])
            }
            return .rejected(reason: reason)
        }
    }
}
