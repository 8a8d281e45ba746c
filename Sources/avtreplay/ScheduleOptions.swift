import ArgumentParser

/// How many sessions a command replays at once.
struct ScheduleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Sessions replayed in parallel; output stays in input order.", valueName: "n"))
    var jobs: Int = 1

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }
}
