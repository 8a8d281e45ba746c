import ArgumentParser

/// What `--newrelic-endpoint` says in one command.
protocol NewRelicEndpointFlag {
    static var help: String { get }
}

/// `--newrelic-endpoint`, for the commands that deliver to New Relic (`run`, `send`).
struct NewRelicOptions<Flag: NewRelicEndpointFlag>: ParsableArguments {
    @Option(help: ArgumentHelp(Flag.help, valueName: "url"))
    var newrelicEndpoint: String?

    /// The flags given, by name.
    var given: [String] { newrelicEndpoint == nil ? [] : ["--newrelic-endpoint"] }
}

/// `run`'s wording, with an example.
enum RunNewRelicEndpoint: NewRelicEndpointFlag {
    static let help =
        "Host of both New Relic APIs instead of New Relic's own (a proxy, or a test server), e.g. http://127.0.0.1:9000."
}

/// `send`'s wording.
enum SendNewRelicEndpoint: NewRelicEndpointFlag {
    static let help = "Host of both New Relic APIs instead of New Relic's own."
}
