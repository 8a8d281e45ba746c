import AVTReplay
import ArgumentParser

/// Limits that stop a hostile timeline from replaying for ever: every command that replays
/// takes them, so one that a real session exceeds can be raised.
struct LimitOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Longest virtual time (ms) a replay may reach; a timeline past it is bad input.", valueName: "ms"))
    var maxDuration = LimitValue(RunOptions.defaultMaxDuration, unit: .milliseconds)

    @OptionGroup var input: InputLimitOptions

    /// Default replay options with these limits, for the commands that replay as `run` does.
    var runOptions: RunOptions {
        var options = RunOptions()
        options.maxDuration = maxDuration.value
        options.inputLimits = input.limits
        return options
    }

    func validate() throws {
        if maxDuration.value < 0 { throw ValidationError("--max-duration must be ≥ 0 ms.") }
    }
}
