import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import ArgumentParser

extension AVTReplayCommand {
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert a timeline between JSON, JSON Lines and CSV, losslessly.",
            discussion: """
                The converted timeline replays to byte-identical `avtreplay run` output: settings are \
                written explicitly (in CSV as the #avtreplay first line), and values keep their types.

                Formats come from the extensions (.json; .jsonl or .ndjson; .csv) unless given. The \
                path - reads standard input (format detected from the content) or writes standard \
                output (then --output-format is required). JSON Lines and CSV input are streamed; the output file is \
                written to a temporary beside it and renamed at the end, so a failed conversion leaves \
                nothing behind.

                A player's own log (ExoPlayer EventLogger, Chrome media-internals, AVPlayer access \
                log) is read as the timeline it shows, which can then be read, edited and kept as a \
                golden case (docs/player-logs.md).

                Examples:
                  avtreplay convert fixtures/happy-path.json happy-path.csv
                  avtreplay convert happy-path.csv happy-path.jsonl
                  avtreplay convert a.csv a.json --tracker content=avplayer --tracker ads=ima
                  cat recording.jsonl | avtreplay convert - - --output-format csv
                  avtreplay convert logcat.txt session.jsonl   # a player log's timeline
                """)

        @Argument(help: ArgumentHelp("The timeline to read, or - for standard input.", valueName: "in"))
        var input: String

        @Argument(help: ArgumentHelp("The file to write (atomically), or - for standard output.", valueName: "out"))
        var output: String

        @Option(
            help: ArgumentHelp(
                "The input's format: json, jsonl, csv, avmetrics, exoplayer-log, chrome-media-log or "
                    + "avplayer-accesslog (default: from the extension, else the content).",
                valueName: "format"),
            transform: Convert.inputFormat)
        var inputFormat: TimelineFormat?

        @Option(
            help: ArgumentHelp(
                "The output's format: json, jsonl or csv (default: from the extension).", valueName: "format"),
            transform: Convert.format)
        var outputFormat: TimelineFormat?

        @OptionGroup var tracker: TrackerOptions
        @OptionGroup var limits: InputLimitOptions

        func validate() throws {
            _ = try targetFormat()
        }

        func run() throws {
            let format = try targetFormat()
            var source: any TimelineSource
            do {
                source = try TimelineReader.open(
                    input, format: inputFormat, csvTrackers: tracker.trackers, limits: limits.limits,
                    warn: PlayerLogWarnings.standardError)
            } catch {
                throw CommandFailure.badInput(error.fixing(eventLog: EventLogFix.convert).description)
            }
            if let warning = ConversionTarget.trackerWarning(source, trackersGiven: !tracker.trackers.isEmpty) {
                Diagnostics.warning(warning)
            }
            let sink: ByteSink
            do {
                try FileIdentity.checkOutputs([output], notAmong: [input])
                sink = output == "-" ? FileDescriptorSink() : try AtomicFileSink(path: output)
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            do {
                try TimelineConverter.convert(&source, to: format, sink: sink, maxColumns: limits.limits.maxColumns)
            } catch {
                guard let failure = CommandFailure(error) else { return }
                (sink as? AtomicFileSink)?.discard()
                throw failure
            }
        }

        private func targetFormat() throws -> TimelineFormat {
            do {
                return try ConversionTarget.format(of: output, given: outputFormat)
            } catch {
                throw ValidationError(error.message)
            }
        }

        /// The output formats, plus what is read only: the AVMetrics and player logs.
        static func inputFormat(_ text: String) throws -> TimelineFormat {
            if let readOnly = TimelineFormat(rawValue: text.lowercased()), !readOnly.isWritable { return readOnly }
            return try format(text)
        }

        static func format(_ text: String) throws -> TimelineFormat {
            switch text.lowercased() {
            case "json": return .json
            case "jsonl", "ndjson": return .jsonl
            case "csv": return .csv
            default: throw ValidationError("unknown timeline format '\(text)': expected json, jsonl or csv")
            }
        }
    }
}
