import ArgumentParser

/// `--delivery-attempts`, for the commands that deliver to servers (`run`, `send`). `run` checks
/// it is at least 1; `send` never did, so it does not here either.
struct RetryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Attempts per batch on connection errors, timeouts, 429 and 5xx.", valueName: "n"))
    var deliveryAttempts: Int = 5
}
