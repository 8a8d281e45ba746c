import AVTTimeline

/// What `convert` writes and what it tells the user about its input.
package enum ConversionTarget {
    /// The output's format: the one given, else the one its extension names. Standard output
    /// has no extension, so it needs one given.
    package static func format(of output: String, given: TimelineFormat?) throws(UsageError) -> TimelineFormat {
        if let given { return given }
        if output == "-" { throw UsageError("Writing to standard output needs --output-format json, jsonl or csv.") }
        guard let format = TimelineFormat.fromExtension(of: output) else {
            throw UsageError(
                "Cannot tell the output format from '\(output)': use a .json, .jsonl or .csv name, or --output-format.")
        }
        return format
    }

    /// `--tracker` only declares the trackers of a CSV timeline without an #avtreplay line; it
    /// does nothing to other sources, which is worth saying.
    package static func trackerWarning(_ source: any TimelineSource, trackersGiven: Bool) -> String? {
        guard trackersGiven else { return nil }
        guard let csv = source as? CSVTimelineReader else {
            return "--tracker ignored: it applies to CSV timelines only"
        }
        return csv.declaresSettings
            ? "--tracker ignored: \(source.name) declares its trackers in its #avtreplay line" : nil
    }
}
