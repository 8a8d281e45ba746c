import AVTTimeline
import ArgumentParser

/// What `--input-format` says in one command.
protocol InputFormatFlag {
    static var help: String { get }
}

/// `--input-format`, for the commands that replay timelines. `convert` has its own: it reads
/// `ndjson` as a name and names its other side `--output-format`.
struct InputFormatOptions<Flag: InputFormatFlag>: ParsableArguments {
    @Option(help: ArgumentHelp(Flag.help, valueName: "format"))
    var inputFormat: TimelineFormat?
}

/// `run` and `kpi`, which read several timelines.
enum TimelinesFormat: InputFormatFlag {
    static let help =
        "The timelines' format: json, jsonl, csv, avmetrics, or a player's log: exoplayer-log, chrome-media-log, "
        + "avplayer-accesslog (default: from the extension, else from the content)."
}

/// `precall`, which reads one.
enum TimelineFormatFlag: InputFormatFlag {
    static let help = "The timeline's format: json, jsonl or csv (default: from the extension, else from the content)."
}
