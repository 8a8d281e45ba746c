import AVTReplay
import AVTTimeline
import ArgumentParser

/// Limits that stop a hostile timeline from replaying for ever: every command that replays
/// takes them, so one that a real session exceeds can be raised.
struct LimitOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Longest virtual time (ms) a replay may reach; a timeline past it is bad input.", valueName: "ms"))
    var maxDuration = LimitValue(RunOptions.defaultMaxDuration, unit: .milliseconds)

    @Option(
        help: ArgumentHelp(
            "Most records (events and metrics) one session may produce; more is bad input.", valueName: "n"))
    var maxRecords = LimitValue(RunOptions.defaultMaxRecords)

    @Option(
        help: ArgumentHelp(
            "Shortest ping interval (ms) a timeline may ask for; shorter is bad input (0, no pings, is always allowed).",
            valueName: "ms"))
    var minPingInterval = LimitValue(RunOptions.defaultMinPingInterval, unit: .milliseconds)

    @Option(
        help: ArgumentHelp(
            "Most bytes of output: records of a run (all sessions together) or of each replay of check and report, "
                + "and the text kpi and report write; more is bad input.",
            valueName: "bytes"))
    var maxOutputBytes = LimitValue(RunOptions.defaultMaxOutputBytes, unit: .bytes)

    /// Refuses (exit 2) a command's whole output, made in memory, that passes `--max-output-bytes`.
    func checkOutput(_ text: String, of inputs: [String]) throws(CommandFailure) {
        let bytes = text.utf8.count
        guard bytes > maxOutputBytes.value else { return }
        throw CommandFailure.badInput(
            "\(inputs.map(InputFile.displayName).joined(separator: ", ")): "
                + OutputByteLimit.error("", limit: maxOutputBytes.value).message + " (\(bytes) bytes)")
    }

    /// Default replay options with these limits, for the commands that replay as `run` does.
    /// The input limits are a sibling group, not a nested one: in debug builds the argument
    /// parser re-validates a nested group once per enclosing level, which made every debug
    /// `run` spend most of its start-up there.
    func runOptions(input: InputLimitOptions) -> RunOptions {
        var options = RunOptions()
        apply(to: &options, input: input)
        return options
    }

    func apply(to options: inout RunOptions, input: InputLimitOptions) {
        options.maxDuration = maxDuration.value
        (options.maxRecords, options.minPingInterval) = (maxRecords.value, minPingInterval.value)
        options.maxOutputBytes = maxOutputBytes.value
        options.inputLimits = input.limits
        // The command line says what a player log's reader skipped or inferred.
        options.warnings = WarningHandler(PlayerLogWarnings.standardError)
    }

    func validate() throws {
        if maxDuration.value < 0 { throw ValidationError("--max-duration must be ≥ 0 ms.") }
        if maxRecords.value < 1 { throw ValidationError("--max-records must be at least 1.") }
        if maxOutputBytes.value < 1 { throw ValidationError("--max-output-bytes must be at least 1.") }
        if minPingInterval.value < 1 { throw ValidationError("--min-ping-interval must be at least 1 ms.") }
    }
}
