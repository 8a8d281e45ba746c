import AVTTimeline
import ArgumentParser

/// Bounds on what one input may ask of memory: every command that reads timelines takes them,
/// so an input that a real session exceeds can be raised past the limit its error names.
struct InputLimitOptions: ParsableArguments {
    private static let defaults = InputLimits()

    // The parser prints each default (`LimitValue` in its unit), so the help texts do not.
    @Option(help: ArgumentHelp("Longest line of a JSONL or CSV input.", valueName: "bytes"))
    var maxLineBytes = LimitValue(defaults.maxLineBytes, unit: .bytes)

    @Option(help: ArgumentHelp("Largest JSON timeline document.", valueName: "bytes"))
    var maxDocumentBytes = LimitValue(defaults.maxDocumentBytes, unit: .bytes)

    @Option(help: ArgumentHelp("Longest tracker, action or attribute name.", valueName: "bytes"))
    var maxNameBytes = LimitValue(defaults.maxNameBytes, unit: .bytes)

    @Option(help: ArgumentHelp("Most distinct attribute names in all inputs.", valueName: "n"))
    var maxKeys = LimitValue(defaults.maxKeys)

    @Option(help: ArgumentHelp("Most columns in a CSV input or CSV output.", valueName: "n"))
    var maxColumns = LimitValue(defaults.maxColumns)

    var limits: InputLimits {
        var limits = InputLimits()
        (limits.maxLineBytes, limits.maxDocumentBytes, limits.maxNameBytes) = (
            maxLineBytes.value, maxDocumentBytes.value, maxNameBytes.value
        )
        (limits.maxKeys, limits.maxColumns) = (maxKeys.value, maxColumns.value)
        return limits
    }

    func validate() throws {
        let given = [
            ("--max-line-bytes", maxLineBytes), ("--max-document-bytes", maxDocumentBytes),
            ("--max-name-bytes", maxNameBytes), ("--max-keys", maxKeys), ("--max-columns", maxColumns),
        ]
        for (flag, limit) in given where limit.value < 1 { throw ValidationError("\(flag) must be at least 1.") }
    }
}
