import AVTCore
import AVTJSON
import AVTOutput
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `graphite://HOST[:PORT]` (plaintext over TCP, port 2003 by default) or `graphite+udp://`.
package struct GraphiteDestination: Sendable, CustomStringConvertible {
    package let description: String
    let host: String
    let port: UInt16
    let udp: Bool

    package init(_ text: String) throws(OutputError) {
        guard let url = URLComponents(string: text), let scheme = url.scheme, scheme == "graphite" || scheme == "graphite+udp",
            let host = url.host, !host.isEmpty
        else { throw OutputError(path: text, message: "expected graphite://HOST[:PORT] or graphite+udp://HOST[:PORT]") }
        self.description = text
        self.host = host
        self.port = UInt16(url.port ?? 2003)
        self.udp = scheme == "graphite+udp"
    }
}

/// Sends plaintext lines to carbon. Carbon acknowledges nothing and drops invalid lines, NaN
/// and points outside its retention silently, so lines are validated here first: each has
/// exactly three fields, a finite value and whole seconds; points outside `retention` seconds
/// of now are counted and reported (they would vanish; `--start-time now` avoids it). A line is
/// delivered once the socket took it; connection failures are retried with backoff, then the
/// lines go to the dead-letter file.
package final class GraphiteDelivery: @unchecked Sendable {
    package let destination: GraphiteDestination
    let policy: DeliveryPolicy
    /// Shared by this destination's batches (see `DeliveryOutage`).
    let outage = DeliveryOutage()
    let ledger: DeliveryLedger
    /// Seconds of history the carbon schema keeps.
    let retention: Int
    private let lock = NSLock()
    package private(set) var outsideRetention = 0

    package init(destination: GraphiteDestination, policy: DeliveryPolicy, ledger: DeliveryLedger, retention: Int) {
        self.destination = destination
        self.policy = policy
        self.ledger = ledger
        self.retention = retention
    }

    package func deliver(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        let now = Int(Date().timeIntervalSince1970)
        var valid: [String] = []
        for line in lines {
            // Split as bytes: splitting into Characters (grapheme by grapheme) was a third of
            // this path's CPU. A carbon line is ASCII, so the fields are the same.
            let fields = line.utf8.split(separator: UInt8(ascii: " "))
            guard fields.count == 3, let valueText = String(fields[1]), let value = Double(valueText), value.isFinite,
                let secondsText = String(fields[2]), let seconds = Int(secondsText)
            else {
                ledger.deadLetter([line], to: destination.description, format: "graphite", reason: "not a valid carbon line")
                continue
            }
            if seconds < now - retention || seconds > now + retention {
                lock.lock()
                outsideRetention += 1
                lock.unlock()
            }
            valid.append(line)
        }
        var start = 0
        while start < valid.count {
            let end = min(valid.count, start + policy.batchLines)
            sendBatch(Array(valid[start..<end]))
            start = end
        }
    }

    private func sendBatch(_ lines: [String]) {
        let gaveUp = policy.retrying(outage: outage, sleep: { Thread.sleep(forTimeInterval: Double($0) / 1000) }) {
            guard let failure = destination.udp ? sendUDP(lines) : sendTCP(lines) else {
                ledger.countDelivered(lines.count, to: destination.description)
                return nil
            }
            return (failure, nil)
        }
        if let gaveUp { ledger.deadLetter(lines, to: destination.description, format: "graphite", reason: gaveUp) }
    }

    /// One connection per batch; returns why it failed, or nil.
    private func sendTCP(_ lines: [String]) -> String? {
        guard let (fd, address) = socketFor(stream: true) else { return "cannot resolve \(destination.host)" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(policy.timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = address.withUnsafeBytes {
            connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
        }
        guard connected == 0 else { return "cannot connect to \(destination.host):\(destination.port): \(String(cString: strerror(errno)))" }
        var payload = Array((lines.joined(separator: "\n") + "\n").utf8)
        var sent = 0
        while sent < payload.count {
            let n = payload.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return "write to \(destination.host):\(destination.port) failed: \(String(cString: strerror(errno)))"
            }
            sent += n
        }
        payload.removeAll()
        return nil
    }

    /// One datagram per line (carbon reads each as one line).
    private func sendUDP(_ lines: [String]) -> String? {
        guard let (fd, address) = socketFor(stream: false) else { return "cannot resolve \(destination.host)" }
        defer { close(fd) }
        for line in lines {
            var bytes = Array((line + "\n").utf8)
            let n = address.withUnsafeBytes { a in
                bytes.withUnsafeMutableBytes {
                    sendto(fd, $0.baseAddress!, $0.count, 0, a.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
                }
            }
            if n < 0 { return "send to \(destination.host):\(destination.port) failed: \(String(cString: strerror(errno)))" }
        }
        return nil
    }

    /// A socket and the resolved IPv4/IPv6 address bytes.
    private func socketFor(stream: Bool) -> (Int32, [UInt8])? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue)
        #else
        hints.ai_socktype = stream ? SOCK_STREAM : SOCK_DGRAM
        #endif
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(destination.host, String(destination.port), &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { return nil }
        let address = Array(UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
        return (fd, address)
    }
}

/// A backend that aggregates a replay's metrics per step and sends them to carbon.
package final class GraphiteDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: GraphiteDelivery
    private var aggregator: GraphiteAggregator
    private let filter: RecordFilter
    private var buffer = JSONBuffer(capacity: 1 << 14)

    package init(delivery: GraphiteDelivery, encoder: GraphiteEncoder, startTime: Int, filter: RecordFilter = RecordFilter()) {
        self.delivery = delivery
        self.aggregator = GraphiteAggregator(encoder: encoder, startTime: startTime)
        self.filter = filter
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        aggregator.add(event, into: &buffer)
        sendIfFull()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics else { return }
        aggregator.add(metric, into: &buffer)
        sendIfFull()
    }

    package func endOfService() {
        aggregator.flush(into: &buffer)
        flushPending()
    }

    /// Sends the lines of the steps already closed (the open step keeps aggregating).
    package func flushPending() {
        guard !buffer.isEmpty else { return }
        let text = String(decoding: buffer.bytes, as: UTF8.self)
        buffer.removeAll()
        delivery.deliver(text.split(separator: "\n").map(String.init))
    }

    /// Closed steps go out once about a batch of lines (~40 bytes each) has gathered, so memory
    /// stays bounded on long replays.
    private func sendIfFull() {
        if buffer.count >= delivery.policy.batchLines * 40 { flushPending() }
    }
}
