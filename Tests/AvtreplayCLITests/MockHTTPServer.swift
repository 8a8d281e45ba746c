import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests of APIs that cannot run here (New Relic):
/// it records every request and answers with scripted statuses (then a default one).
final class MockHTTPServer: @unchecked Sendable {
    struct Request {
        var method: String
        var path: String
        var headers: [String: String]
        var body: [UInt8]
        /// When the whole request had arrived.
        var received = Date()
    }

    /// Answers a request itself (status, headers, body) instead of the script, when it returns
    /// non-nil; for servers that name what they reject.
    var respond: (@Sendable (Request) -> (status: Int, headers: [String: String], body: String)?)? {
        get { lock.withLock { responder } }
        set { lock.withLock { responder = newValue } }
    }
    /// Seconds to wait before answering each request (a server slower than the replay).
    var delay: TimeInterval {
        get { lock.withLock { slowness } }
        set { lock.withLock { slowness = newValue } }
    }
    private var responder: (@Sendable (Request) -> (status: Int, headers: [String: String], body: String)?)?
    private var slowness: TimeInterval = 0

    let port: UInt16
    private let fd: Int32
    private let lock = NSLock()
    private var recorded: [Request] = []
    private var script: [(status: Int, headers: [String: String])]
    private let fallback: Int
    /// Signalled when the accept loop has ended.
    private let served = DispatchSemaphore(value: 0)
    private var closed = false

    /// Listens on `port` (0: any free port).
    init(script: [(status: Int, headers: [String: String])] = [], fallback: Int = 202, port wanted: UInt16 = 0) throws {
        self.script = script
        self.fallback = fallback
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = wanted.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        Thread { [self] in serve() }.start()
    }

    deinit { if !closed { close(fd) } }

    /// Stops listening and frees the port for another server: shutdown wakes the thread blocked
    /// in accept, which ends; then the socket is closed.
    func stopListening() {
        guard !closed else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        served.wait()
        close(fd)
        closed = true
    }

    var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    private func serve() {
        defer { served.signal() }
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { return }
            handle(client)
        }
    }

    private func handle(_ client: Int32) {
        defer { close(client) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            data.append(contentsOf: chunk[0..<n])
            if headerEnd == nil, let end = find(data, Array("\r\n\r\n".utf8)) {
                headerEnd = end + 4
                let head = String(decoding: data[0..<end], as: UTF8.self)
                for line in head.split(separator: "\r\n").dropFirst()
                where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
                // As Go's net/http (InfluxDB) does: a client that announced its body gets it asked for.
                if head.lowercased().contains("\r\nexpect: 100-continue"), data.count < end + 4 + contentLength {
                    var go = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                    _ = go.withUnsafeMutableBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
            if let headerEnd, data.count >= headerEnd + contentLength { break }
        }
        guard let headerEnd else { return }
        let lines = String(decoding: data[0..<(headerEnd - 4)], as: UTF8.self).split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let request = Request(
            method: requestLine.count > 0 ? String(requestLine[0]) : "",
            path: requestLine.count > 1 ? String(requestLine[1]) : "",
            headers: headers, body: Array(data[headerEnd..<(headerEnd + contentLength)]))
        lock.lock()
        recorded.append(request)
        let custom = responder?(request)
        let scripted = custom == nil ? (script.isEmpty ? (status: fallback, headers: [:]) : script.removeFirst()) : nil
        let answer = custom ?? (status: scripted!.status, headers: scripted!.headers, body: "{}")
        let wait = slowness
        lock.unlock()
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        var response =
            "HTTP/1.1 \(answer.status) Status\r\nContent-Length: \(answer.body.utf8.count)\r\nConnection: close\r\n"
        for (name, value) in answer.headers { response += "\(name): \(value)\r\n" }
        response += "\r\n" + answer.body
        var bytes = Array(response.utf8)
        _ = bytes.withUnsafeMutableBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }
}
