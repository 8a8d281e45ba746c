import AVTAnalysis
import ArgumentParser

struct AVTReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "avtreplay",
        abstract:
            "Replay player telemetry timelines through OpenAVT's tracker → hub → metricalc chain on a virtual clock.",
        discussion: """
            Reads a scripted or recorded player timeline and prints, deterministically, the events and \
            metrics an OpenAVT backend would receive.

            Exit codes: 0 ok; 1 outputs differ or a verdict is worse; 2 bad input (file or flags); \
            3 replayed but not everything was delivered.

            Examples:
              avtreplay run fixtures/happy-path.json
              avtreplay run --help
            """,
        version: "0.1.0",
        subcommands: [Run.self, Convert.self, Check.self, Diff.self, KPI.self, Send.self, PreCall.self, Report.self]
    )
}
