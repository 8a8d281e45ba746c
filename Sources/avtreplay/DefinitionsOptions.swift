import AVTAnalysis
import AVTKPI
import AVTOutput
import ArgumentParser

/// `--definitions`, for the commands that compute KPIs (`kpi`, `report`).
struct DefinitionsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Which variant of the disputed KPIs.", valueName: "set"))
    var definitions: KPIDefinitions = .openavt
}
