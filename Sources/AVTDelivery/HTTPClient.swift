import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A blocking HTTP request for the delivery backends, which run on the replay's thread and must
/// know the outcome before going on (retry, dead-letter or count as delivered).
package enum HTTPClient {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    enum Failure: Error, CustomStringConvertible {
        case transport(String)

        var description: String {
            switch self {
            case .transport(let message): return message
            }
        }
    }

    private final class Outcome: @unchecked Sendable {
        var result: Result<Response, Failure> = .failure(.transport("no answer"))
    }

    static func post(_ url: URL, body: Data, headers: [String: String], timeout: TimeInterval) -> Result<
        Response, Failure
    > {
        if url.scheme == "http" { return SocketHTTP.post(url, body: body, headers: headers, timeout: timeout) }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                outcome.result = .failure(.transport(error.localizedDescription))
            } else if let http = response as? HTTPURLResponse {
                var fields: [String: String] = [:]
                for (key, value) in http.allHeaderFields {
                    if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
                }
                outcome.result = .success(
                    Response(
                        status: http.statusCode, headers: fields, body: String(decoding: data ?? Data(), as: UTF8.self))
                )
            }
            done.signal()
        }
        task.resume()
        done.wait()
        return outcome.result
    }
}
