import AVTTimeline
import ArgumentParser

/// Bounds on what one input may ask of memory: every command that reads timelines takes them,
/// so an input that a real session exceeds can be raised past the limit its error names.
struct InputLimitOptions: ParsableArguments {
    private static let defaults = InputLimits()

    @Option(help: ArgumentHelp("Longest line of a JSONL or CSV input (default: 16 MiB).", valueName: "bytes"))
    var maxLineBytes = defaults.maxLineBytes

    @Option(help: ArgumentHelp("Largest JSON timeline document (default: 1 GiB).", valueName: "bytes"))
    var maxDocumentBytes = defaults.maxDocumentBytes

    @Option(help: ArgumentHelp("Longest tracker, action or attribute name (default: 4096).", valueName: "bytes"))
    var maxNameBytes = defaults.maxNameBytes

    @Option(help: ArgumentHelp("Most distinct attribute names in all inputs (default: 100000).", valueName: "n"))
    var maxKeys = defaults.maxKeys

    @Option(help: ArgumentHelp("Most columns in a CSV input or CSV output (default: 1000).", valueName: "n"))
    var maxColumns = defaults.maxColumns

    var limits: InputLimits {
        var limits = InputLimits()
        (limits.maxLineBytes, limits.maxDocumentBytes, limits.maxNameBytes) = (
            maxLineBytes, maxDocumentBytes, maxNameBytes
        )
        (limits.maxKeys, limits.maxColumns) = (maxKeys, maxColumns)
        return limits
    }

    func validate() throws {
        let given = [
            ("--max-line-bytes", maxLineBytes), ("--max-document-bytes", maxDocumentBytes),
            ("--max-name-bytes", maxNameBytes), ("--max-keys", maxKeys), ("--max-columns", maxColumns),
        ]
        for (flag, value) in given where value < 1 { throw ValidationError("\(flag) must be at least 1.") }
    }
}
