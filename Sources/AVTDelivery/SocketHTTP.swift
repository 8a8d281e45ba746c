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
    static func post(_ url: URL, body: Data, headers: [String: String], timeout: TimeInterval) -> Result<
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
            return .failure(.transport("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))"))
        }
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        var head =
            "POST \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var request = Array(head.utf8)
        request.append(contentsOf: body)
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.transport("write to \(host):\(port) failed: \(String(cString: strerror(errno)))"))
            }
            sent += n
        }
        // The server closes after its answer: read to the end.
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.transport("no answer from \(host):\(port): \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            answer.append(contentsOf: chunk[0..<n])
        }
        return parse(answer).map { .success($0) }
            ?? .failure(.transport("\(host):\(port) closed the connection without a valid HTTP answer"))
    }

    /// Status line, headers (lower-cased names) and body (Content-Length, chunked, or to the end).
    static func parse(_ bytes: [UInt8]) -> HTTPClient.Response? {
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
