import AVTOutput
import AVTTimeline

/// Counts the bytes a replay writes and refuses the write that would pass `--max-output-bytes`.
/// `--max-records` bounds the count of records, but not their size: every event carries every
/// attribute set so far, so a timeline with a new attribute per step writes a quadratic amount.
/// The replay reads `isExceeded` between steps and timers (as it reads `RecordLimit`) and ends
/// with a located error instead of filling a CI runner's disk.
public final class OutputByteLimit: ByteSink {
    private let inner: ByteSink
    /// Most bytes written before the replay stops.
    public let limit: Int
    /// Bytes passed on so far, including those of the sessions before (`written` at creation).
    public private(set) var written: Int
    /// Set by the first write that would have passed the limit; nothing of it was passed on.
    public private(set) var isExceeded = false

    /// `written` is what earlier sessions wrote to the same output: the limit is for all of it.
    public init(_ inner: ByteSink, limit: Int, written: Int = 0) {
        self.inner = inner
        self.limit = limit
        self.written = written
    }

    /// Passes `bytes` on and counts them.
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        try admit(bytes.count)
        try inner.write(bytes)
    }

    public func write(contentsOf bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        try admit(bytes.count)
        try inner.write(contentsOf: bytes)
    }

    /// Closing is the owner's of the sink underneath: one output outlives each session's count.
    public func close() throws(OutputError) {}

    private func admit(_ count: Int) throws(OutputError) {
        guard !isExceeded, count <= limit - written else {
            isExceeded = true
            throw OutputError(path: "output", message: Self.message(limit), isInputLimit: true)
        }
        written += count
    }

    /// The error once exceeded: where the replay was, the limit and its flag.
    public func error(_ file: String, at origin: StepOrigin?) -> TimelineError {
        TimelineError(
            file: file, location: origin?.location, path: origin.map { "steps[\($0.index)]" },
            message: Self.message(limit))
    }

    package static func error(_ file: String, limit: Int) -> TimelineError {
        TimelineError(file: file, message: Self.message(limit))
    }

    private static func message(_ limit: Int) -> String {
        "would write more than \(limit) bytes of output (--max-output-bytes; default \(RunOptions.defaultMaxOutputBytes)); "
            + "raise it with --max-output-bytes <bytes>"
    }
}
