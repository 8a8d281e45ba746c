import AVTOutput
import AVTReplay
import ArgumentParser

/// What `-o/--output` says and defaults to in one command.
protocol OutputFlag {
    static var help: String { get }
    static var defaultPath: String { get }
}

/// `-o/--output`: where a command writes what it produces. The wording differs per command
/// (records, a report, an HTML file), hence the parameter.
struct OutputOptions<Flag: OutputFlag>: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(Flag.help, valueName: "file"))
    var output: String = Flag.defaultPath

    /// Refuses (exit 2) an output that is one of the inputs: the atomic rename at the end would
    /// replace what was read. Folders are expanded as the command reads them.
    func refuseOverwriting(_ inputs: [String]) throws(CommandFailure) {
        guard output != "-" else { return }
        do {
            let files = try SessionDiscovery.expand(inputs, keepOutputs: .always)
            try FileIdentity.checkOutputs([output], notAmong: inputs + files)
        } catch {
            throw CommandFailure.badInput(String(describing: error))
        }
    }

    /// Writes `text` (atomically to a file); a closed pipe is not a failure.
    /// `interrupted`: the text is what was done before Ctrl-C, so a file gets it as
    /// `FILE.partial` (see `PartialOutput`).
    func write(_ text: String, interrupted: Bool = false) throws(CommandFailure) {
        do {
            let sink: ByteSink = output == "-" ? FileDescriptorSink() : try AtomicFileSink(path: output)
            try sink.write(Array(text.utf8))
            try PartialOutput.close(sink, target: sink, interrupted: interrupted)
        } catch let error as OutputError {
            if !error.isBrokenPipe { throw CommandFailure(message: error.description, status: .failure) }
        } catch {
            throw CommandFailure(message: "\(error)", status: .failure)
        }
    }
}

/// `run`'s records.
enum RecordsOutput: OutputFlag {
    static let help = "Write the records to this file (atomically) instead of standard output; - is standard output."
    static let defaultPath = "-"
}

/// `kpi` and `precall`.
enum PlainOutput: OutputFlag {
    static let help = "Write to this file (atomically); - is standard output."
    static let defaultPath = "-"
}

/// `report`'s page.
enum HTMLOutput: OutputFlag {
    static let help = "The HTML file to write (atomically); - is standard output."
    static let defaultPath = "report.html"
}
