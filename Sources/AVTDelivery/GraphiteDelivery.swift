import AVTCore
import AVTJSON
import AVTOutput
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends plaintext lines to carbon. Carbon acknowledges nothing and drops invalid lines, NaN
/// and points outside its window silently, so lines are checked here first: each has exactly
/// three fields, a finite value and whole seconds, and lies within carbon's window, from
/// `retention` seconds ago to now (whisper's `file_update` refuses a point from the future as
/// well as one older than the archive). A point outside goes to the dead-letter file; `send`
/// delivers it once its time has come. A line is delivered once the socket took it; connection
/// failures are retried with backoff, then the lines go to the dead-letter file.
///
/// Carbon keeps one value per path and step, the last it was sent: a second line of a path and
/// time already sent by this run replaces the first. Such lines are counted as overwritten, not
/// delivered, whichever session sent them (see `SentPaths`).
package final class GraphiteDelivery: @unchecked Sendable {
    package let destination: GraphiteDestination
    let policy: DeliveryPolicy
    /// Shared by this destination's batches (see `DeliveryOutage`).
    let outage = DeliveryOutage()
    let ledger: DeliveryLedger
    /// Points outside carbon's window: `--graphite-retention` seconds ago to now.
    package let windowFilter: DeliveryWindowFilter
    /// The path and time of every line sent, across the run's sessions.
    private let sent = SentPaths()

    package init(destination: GraphiteDestination, policy: DeliveryPolicy, ledger: DeliveryLedger, retention: Int) {
        self.destination = destination
        self.policy = policy
        self.ledger = ledger
        self.windowFilter = DeliveryWindowFilter(
            window: DeliveryWindow(
                past: retention.multipliedReportingOverflow(by: 1000).overflow ? nil : retention * 1000, ahead: 0,
                keeper: "carbon",
                fix: "replay with --end-time now, or set --graphite-retention to the schema's retention"),
            destination: destination.description, ledger: ledger)
    }

    /// A carbon line's time in epoch ms (its third field is whole seconds).
    static func time(ofLine line: String) -> Int? {
        guard let space = line.utf8.lastIndex(of: UInt8(ascii: " ")),
            let seconds = Int(Substring(line.utf8[line.utf8.index(after: space)...]))
        else { return nil }
        let (ms, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? nil : ms
    }

    package func deliver(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        var valid: [String] = []
        for line in lines {
            // Split as bytes: splitting into Characters (grapheme by grapheme) was a third of
            // this path's CPU. A carbon line is ASCII, so the fields are the same.
            let fields = line.utf8.split(separator: UInt8(ascii: " "))
            guard fields.count == 3, let valueText = String(fields[1]), let value = Double(valueText), value.isFinite,
                let secondsText = String(fields[2]), Int(secondsText) != nil
            else {
                ledger.deadLetter(
                    [line], to: destination.description, format: "graphite", reason: "not a valid carbon line")
                continue
            }
            valid.append(line)
        }
        valid = windowFilter.admit(valid, format: "graphite", time: Self.time(ofLine:))
        let repeated = sent.insert(valid)
        if repeated > 0 { ledger.countOverwritten(repeated, to: destination.description) }
        var start = 0
        while start < valid.count {
            let end = min(valid.count, start + policy.batchLines)
            sendBatch(Array(valid[start..<end]))
            start = end
        }
    }

    private func sendBatch(_ lines: [String]) {
        let gaveUp = policy.retrying(outage: outage, sleep: DeliveryPolicy.sleep(milliseconds:)) {
            guard let failure = destination.udp ? sendUDP(lines) : sendTCP(lines) else {
                ledger.countDelivered(lines.count, to: destination.description)
                return nil
            }
            // Carbon never answers: a failure is the connection's, so the destination stays down.
            return (failure, nil, false)
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
        guard connected == 0 else {
            return "cannot connect to \(destination.host):\(destination.port): \(String(cString: strerror(errno)))"
        }
        var payload = Array((lines.joined(separator: "\n") + "\n").utf8)
        var sent = 0
        while sent < payload.count {
            let n = payload.withUnsafeMutableBytes {
                Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
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
                    sendto(
                        fd, $0.baseAddress!, $0.count, 0, a.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                        socklen_t(address.count))
                }
            }
            if n < 0 {
                return "send to \(destination.host):\(destination.port) failed: \(String(cString: strerror(errno)))"
            }
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
        guard getaddrinfo(destination.host, String(destination.port), &hints, &result) == 0, let info = result else {
            return nil
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { return nil }
        let address = Array(UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
        return (fd, address)
    }
}
