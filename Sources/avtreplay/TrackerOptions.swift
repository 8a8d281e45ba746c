import AVTTimeline
import AVTTrackers
import ArgumentParser

/// `--tracker`, for every command that reads timelines; `TrackerDeclaration` says what a value means.
struct TrackerOptions: ParsableArguments {
    @Option(name: .customLong("tracker"), help: TrackerOptions.help, transform: TrackerOptions.parse)
    var trackers: [TrackerSpec] = []

    func validate() throws {
        do {
            try TrackerDeclaration.checkUnique(trackers)
        } catch {
            throw ValidationError(error.message)
        }
    }

    static var help: ArgumentHelp {
        let kinds = TrackerKind.allCases.map(\.rawValue).joined(separator: "|")
        return ArgumentHelp(
            "A tracker of a CSV timeline without a #avtreplay line: NAME[=KIND][,ads|,no-ads][,init|,no-init], "
                + "KIND \(kinds) (default generic). Repeat for several trackers; ids follow the order.",
            valueName: "name=kind")
    }

    static func parse(_ text: String) throws -> TrackerSpec {
        do {
            return try TrackerDeclaration.parse(text)
        } catch {
            throw ValidationError(error.message)
        }
    }
}
