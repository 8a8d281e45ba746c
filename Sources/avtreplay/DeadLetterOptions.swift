import ArgumentParser

/// What `--dead-letter` says and defaults to in one command.
protocol DeadLetterFlag {
    static var help: String { get }
    static var defaultPath: String { get }
}

/// `--dead-letter`: where records no server took are kept. `send` writes a file of its own, so
/// it does not overwrite the one it reads.
struct DeadLetterOptions<Flag: DeadLetterFlag>: ParsableArguments {
    @Option(help: ArgumentHelp(Flag.help, valueName: "file"))
    var deadLetter: String = Flag.defaultPath
}

/// `run`.
enum RunDeadLetter: DeadLetterFlag {
    static let help =
        "Where records a server did not take are kept, with the reason."
    static let defaultPath = "avtreplay-undelivered.jsonl"
}

/// `send`.
enum SendDeadLetter: DeadLetterFlag {
    static let help = "Where lines that still fail are kept."
    static let defaultPath = "avtreplay-undelivered-again.jsonl"
}
