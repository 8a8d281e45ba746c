import AVTReplay
import ArgumentParser

/// `--input-format` of the commands that replay several timelines (`run`, `kpi`).
struct InputFormatOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The timelines' format: json, jsonl, csv or avmetrics (default: from the extension, else from the content).",
        valueName: "format"))
    var inputFormat: TimelineFormat?
}
