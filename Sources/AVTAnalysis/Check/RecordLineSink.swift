import AVTKPI
import AVTOutput
import AVTTimeline

/// A sink for a replay's JSON Lines output that parses each line into a record as it comes and
/// hands it on, so the output is never held whole. A line that is not a record (which `run`
/// never writes) stops the handing on; `finish()` throws it.
final class RecordLineSink: ByteSink {
    private let name: String
    private let deliver: (OutputRecord) -> Void
    private var partial: [UInt8] = []
    private var line = 0
    private var failure: TimelineError?

    init(name: String, deliver: @escaping (OutputRecord) -> Void) {
        self.name = name
        self.deliver = deliver
    }

    func write(_ bytes: [UInt8]) throws(OutputError) {
        bytes.withUnsafeBufferPointer { take($0) }
    }

    func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) { take(bytes) }

    func close() throws(OutputError) {}

    /// Hands on a last line without its newline, and throws the first unreadable line's error.
    func finish() throws(TimelineError) {
        if !partial.isEmpty {
            let rest = partial
            partial = []
            rest.withUnsafeBufferPointer { parse($0) }
        }
        if let failure { throw failure }
    }

    private func take(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            if partial.isEmpty {
                parse(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            } else {
                partial.append(contentsOf: bytes[start..<index])
                let whole = partial
                partial.removeAll(keepingCapacity: true)
                whole.withUnsafeBufferPointer { parse($0) }
            }
            start = index + 1
        }
        if start < bytes.count { partial.append(contentsOf: bytes[start...]) }
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        line += 1
        guard failure == nil, !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return }
        do {
            deliver(try OutputLog.parse(bytes, line: line, file: name))
        } catch {
            failure = error
        }
    }
}
