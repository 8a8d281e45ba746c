import AVTAnalysis
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers
import ArgumentParser

extension AVTReplayCommand {
    struct PreCall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "precall",
            abstract: "Decide from a pre-call test's network statistics whether a call can have audio and video.",
            discussion: """
                Reads the samples of the timeline's netstats tracker (cumulative audio and video bytes, \
                packets received and packets lost) and cuts them into windows: a window closes at the \
                first sample at least --window ms after the previous one. At --duration (t = 0 is when \
                the subscriber connected) it decides on the latest window:

                  audio-video  video passes and audio passes
                  audio-only   audio passes
                  neither      otherwise

                Video passes with at least --video-kbps and at most --video-loss % packet loss; audio \
                with --audio-kbps and --audio-loss %. --profile opentok-sample is OpenTok's iOS sample \
                exactly: 150 kbps for video, an unknown loss passes, failing audio is ignored when video \
                passes, and when neither passes audio is checked again after a 6 s audio-only retest. \
                Flags override the profile.

                Exit codes: 0 ok; 1 the verdict is worse than --require; 2 bad input.

                Examples:
                  avtreplay precall fixtures/precall-good.json
                  avtreplay precall fixtures/precall-audio-only.json --format json
                  avtreplay precall stats.jsonl --profile opentok-sample --require audio-video
                  avtreplay precall stats.csv --tracker sub=netstats --video-kbps 300
                """)

        @Argument(
            help: ArgumentHelp(
                "A timeline (JSON, JSONL or CSV) with a netstats tracker, or - for standard input.",
                valueName: "timeline"))
        var timeline: String

        @OptionGroup var input: InputFormatOptions<TimelineFormatFlag>

        @OptionGroup var tracker: TrackerOptions
        @OptionGroup var limits: InputLimitOptions

        @Option(help: ArgumentHelp("The netstats tracker to read, when the timeline has several.", valueName: "name"))
        var subscriber: String?

        @Option(
            help: ArgumentHelp(
                "The criteria: default (the intended rule) or opentok-sample (OpenTok's sample code; see above).",
                valueName: "profile")
        )
        var profile: PreCallProfile = .standard

        @Option(help: ArgumentHelp("Minimum window length in ms (default 3000).", valueName: "ms"))
        var window: Int?

        @Option(help: ArgumentHelp("When the verdict is taken, in ms after t = 0 (default 10000).", valueName: "ms"))
        var duration: Int?

        @Option(
            help: ArgumentHelp("Minimum video bandwidth in kbps (default 50; opentok-sample 150).", valueName: "kbps"))
        var videoKbps: Double?

        @Option(help: ArgumentHelp("Maximum video packet loss in percent (default 3).", valueName: "percent"))
        var videoLoss: Double?

        @Option(help: ArgumentHelp("Minimum audio bandwidth in kbps (default 25).", valueName: "kbps"))
        var audioKbps: Double?

        @Option(help: ArgumentHelp("Maximum audio packet loss in percent (default 5).", valueName: "percent"))
        var audioLoss: Double?

        @Option(
            help: ArgumentHelp(
                "When the verdict would be neither, check audio again this many ms later; 0 for no retest "
                    + "(default 0; opentok-sample 6000).",
                valueName: "ms"))
        var audioRetest: Int?

        @Option(
            help: ArgumentHelp(
                "Exit 1 unless the verdict is at least this: audio-video or audio.", valueName: "verdict"))
        var require: PreCallRequirement?

        @Option(help: ArgumentHelp("text for reading, json for tools.", valueName: "format"))
        var format: PreCallFormat = .text

        @OptionGroup var output: OutputOptions<PlainOutput>

        func validate() throws {
            do {
                try overrides.validate()
            } catch {
                throw ValidationError(error.message)
            }
        }

        private var overrides: PreCallOverrides {
            var overrides = PreCallOverrides()
            (overrides.windowLength, overrides.duration, overrides.audioRetest) = (window, duration, audioRetest)
            (overrides.videoKbps, overrides.videoLossPercent) = (videoKbps, videoLoss)
            (overrides.audioKbps, overrides.audioLossPercent) = (audioKbps, audioLoss)
            return overrides
        }

        func run() throws {
            try output.refuseOverwriting([timeline])
            let criteria = overrides.criteria(profile)
            let result: PreCallResult
            do {
                var source = try TimelineReader.open(
                    timeline, format: input.inputFormat, csvTrackers: tracker.trackers, limits: limits.limits,
                    warn: PlayerLogWarnings.standardError)
                result = try PreCallTest.run(&source, subscriber: subscriber, criteria: criteria).result
            } catch {
                throw CommandFailure.badInput(error.fixing(eventLog: EventLogFix.precall).description)
            }
            for warning in result.warnings(input: InputFile.displayName(timeline)) { Diagnostics.warning(warning) }
            try output.write(
                format == .json
                    ? PreCallReport.json(result) : PreCallReport.text(result, criteria: criteria, profile: profile))
            if let require, let failure = require.failure(for: result.verdict) { throw failure }
        }
    }
}

enum PreCallFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
