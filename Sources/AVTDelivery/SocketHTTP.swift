import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain-HTTP/1.1 POST over a blocking socket, one connection per request
/// (`Connection: close`). Measured on loopback, Foundation's URLSession spent more CPU on its
/// event loop and small writes than the whole replay did; this writes the request in one go
/// and reads the answer. https:// still goes through URLSession (TLS).
package enum SocketHTTP {
    /// `announcing: false` sends even a large body at once (a server that answered 417 to `Expect`).
    static func post(
        _ url: URL, body: Data, headers: [String: String], timeout: TimeInterval, announcing: Bool = true
    ) -> Result<
        HTTPClient.Response, HTTPClient.Failure
    > {
        guard let host = url.host else { return .failure(.transport("no host in \(url)")) }
        let port = url.port ?? 80
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else {
            return .failure(.transport("cannot resolve \(host)"))
        }
        defer { freeaddrinfo(found) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { return .failure(.transport("socket: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            // SO_SNDTIMEO bounds connect too; it then fails with EINPROGRESS.
            if errno == EINPROGRESS || errno == EAGAIN {
                return .failure(.transport("no answer from \(host):\(port) within \(seconds(timeout)) (connecting)"))
            }
            return .failure(.transport("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))"))
        }
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        let server = "\(host):\(port)"
        // A large body is announced first: a server that refuses the request (unknown database,
        // bad credentials, a body over its limit) answers before reading it and closes the
        // connection, and a body written into that closed connection turns its answer into
        // "connection reset by peer". Small bodies fit in the socket buffers, so their answer
        // is read as usual.
        let announce = announcing && body.count >= expectThreshold
        var head =
            "POST \(target) HTTP/1.1\r\nHost: \(server)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        if announce { head += "Expect: 100-continue\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var answer: [UInt8] = []
        if announce {
            if let failure = write(fd, Array(head.utf8), to: server, timeout: timeout) { return .failure(failure) }
            // RFC 9110 §10.1.1: a client need not wait long for 100 Continue; one that never
            // comes (a server that does not implement it) is followed by the body after a second.
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(min(timeout, 1) * 1000)) > 0 {
                switch readHead(fd, into: &answer) {
                case .some(let status) where status == 100:
                    answer.removeAll()
                case .some(let status) where status == 417:
                    // RFC 9110 §10.1.1: a server that refuses the expectation gets the request without it.
                    return post(url, body: body, headers: headers, timeout: timeout, announcing: false)
                case .some:
                    // The final answer, before the body: the request is refused (or taken) as it is.
                    return finish(fd, answer, from: server, timeout: timeout)
                case .none:
                    break
                }
            }
            if let failure = write(fd, Array(body), to: server, timeout: timeout) {
                return readAfterFailedWrite(fd, answer, from: server, timeout: timeout, failure: failure)
            }
        } else {
            var request = Array(head.utf8)
            request.append(contentsOf: body)
            if let failure = write(fd, request, to: server, timeout: timeout) {
                return readAfterFailedWrite(fd, answer, from: server, timeout: timeout, failure: failure)
            }
        }
        return finish(fd, answer, from: server, timeout: timeout)
    }

    /// Bodies from this size on are sent after `Expect: 100-continue`.
    static let expectThreshold = 65_536

    /// Writes all of `bytes`; the failure, if any.
    private static func write(_ fd: Int32, _ bytes: [UInt8], to server: String, timeout: TimeInterval)
        -> HTTPClient.Failure?
    {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    return .transport("\(server) took no data within \(seconds(timeout))")
                }
                return .transport("write to \(server) failed: \(String(cString: strerror(errno)))")
            }
            sent += n
        }
        return nil
    }

    /// A write failed: the server may have answered and closed (a refusal before the body was
    /// read); its answer is worth more than the write's error.
    private static func readAfterFailedWrite(
        _ fd: Int32, _ answer: [UInt8], from server: String, timeout: TimeInterval, failure: HTTPClient.Failure
    ) -> Result<HTTPClient.Response, HTTPClient.Failure> {
        if case .success(let response) = finish(fd, answer, from: server, timeout: timeout) {
            return .success(response)
        }
        return .failure(failure)
    }

    /// Reads until the end of a response head (`\r\n\r\n`); its status, or nil.
    private static func readHead(_ fd: Int32, into answer: inout [UInt8]) -> Int? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while find(answer, [13, 10, 13, 10]) == nil {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return nil }
            answer.append(contentsOf: chunk[0..<n])
        }
        let status = String(decoding: answer.prefix(16), as: UTF8.self).split(separator: " ")
        return status.count >= 2 ? Int(status[1]) : nil
    }

    /// Reads the answer to its end (the server closes after it) and parses it.
    private static func finish(_ fd: Int32, _ start: [UInt8], from server: String, timeout: TimeInterval) -> Result<
        HTTPClient.Response, HTTPClient.Failure
    > {
        var answer = start
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                // A complete answer may be followed by a reset (the server closed with unread data).
                if let response = parse(answer) { return .success(response) }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    return .failure(.transport("no answer from \(server) within \(seconds(timeout))"))
                }
                return .failure(.transport("no answer from \(server): \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            answer.append(contentsOf: chunk[0..<n])
        }
        return parse(answer).map { .success($0) }
            ?? .failure(.transport("\(server) closed the connection without a valid HTTP answer"))
    }

    /// "10 s", "2.5 s".
    static func seconds(_ timeout: TimeInterval) -> String {
        timeout == timeout.rounded() && abs(timeout) < 1e15 ? "\(Int(timeout)) s" : "\(timeout) s"
    }

    private static func find(_ bytes: [UInt8], _ needle: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Status line, headers (lower-cased names) and body (Content-Length, chunked, or to the end).
    static func parse(_ bytes: [UInt8]) -> HTTPClient.Response? {
        var bytes = bytes
        // Interim answers (100 Continue) come before the final one.
        while bytes.starts(with: Array("HTTP/1.1 1".utf8)) || bytes.starts(with: Array("HTTP/1.0 1".utf8)),
            let end = find(bytes, [13, 10, 13, 10])
        {
            bytes.removeFirst(end + 4)
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(separator) })
        else {
            return nil
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/"), let status = Int(statusParts[1]) else {
            return nil
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            body = unchunked(body)
        } else if let length = headers["content-length"].flatMap(Int.init), length <= body.count {
            body = Array(body.prefix(length))
        }
        return HTTPClient.Response(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
    }

    private static func unchunked(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard let lineEnd = (i..<max(i, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                let size = Int(
                    String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16),
                size > 0
            else { break }
            let start = lineEnd + 2
            result.append(contentsOf: bytes[start..<min(bytes.count, start + size)])
            i = start + size + 2
        }
        return result
    }
}
