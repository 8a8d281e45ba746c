import AVTReplay
import ArgumentParser

/// `--tracker`, for every command that reads timelines.
struct TrackerOptions: ParsableArguments {
    @Option(name: .customLong("tracker"), help: TrackerFlag.help, transform: TrackerFlag.parse)
    var trackers: [TrackerSpec] = []

    func validate() throws { try TrackerFlag.validate(trackers) }
}
