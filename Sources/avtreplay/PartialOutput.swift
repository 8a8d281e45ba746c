import AVTOutput

/// `-o FILE` is complete or absent: an interrupted command keeps what it wrote as `FILE.partial`
/// and says so, and `FILE` stays as it was.
enum PartialOutput {
    /// Closes `sink` (which writes into `target`); when `interrupted`, the file becomes partial.
    static func close(_ sink: ByteSink, target: ByteSink, interrupted: Bool) throws {
        let file = target as? AtomicFileSink
        if interrupted { file?.keepAsPartial() }
        try sink.close()
        if let file, let partial = file.partialPath {
            Diagnostics.print(
                "avtreplay: interrupted: what was complete is in \(InputFile.displayName(partial)); "
                    + "\(InputFile.displayName(file.path)) was not written")
        }
    }
}
