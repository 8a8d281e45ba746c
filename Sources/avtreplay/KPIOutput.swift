import AVTOutput
import AVTReplay

/// Where `kpi` writes, a session at a time: standard output (each session's text written as it
/// is ready, so a pipe or a terminal sees it at once) or a file written atomically (renamed into
/// place by `close`, so a failed `kpi` leaves none, an interrupted one `FILE.partial`). `--max-output-bytes` is
/// counted as the text goes.
final class KPIOutput {
    private let sink: ByteSink
    private let limit: Int
    private let inputs: [String]
    private var written = 0
    /// The output is a file (`-o FILE`), not standard output.
    let isFile: Bool

    init(path: String, limit: Int, inputs: [String]) throws(CommandFailure) {
        self.limit = limit
        self.inputs = inputs
        isFile = path != "-"
        do {
            sink = isFile ? try AtomicFileSink(path: path) : FileDescriptorSink()
        } catch {
            throw CommandFailure(message: error.description, status: .failure)
        }
    }

    /// Writes `bytes`; a closed pipe ends the command quietly (`CommandFailure(_:)` gives nil).
    func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        written += bytes.count
        if written > limit {
            throw CommandFailure.badInput(
                "\(inputs.map(InputFile.displayName).joined(separator: ", ")): "
                    + OutputByteLimit.error("", limit: limit).message + " (\(written) bytes)")
        }
        try sink.write(bytes)
    }

    /// Puts the file in place.
    func close() throws { try sink.close() }

    /// Drops the file's temporary (nothing replaces the target); nothing for standard output.
    func discard() { (sink as? AtomicFileSink)?.discard() }

    /// An interrupted `kpi`: what was written is kept as `FILE.partial` (the target untouched);
    /// where it went, nil for standard output.
    func keepPartial() -> String? {
        guard let file = sink as? AtomicFileSink else { return nil }
        file.keepAsPartial()
        do {
            try file.close()
        } catch {
            file.discard()
            return nil
        }
        return file.partialPath
    }
}
