import AVTReplay
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

        @Argument(help: ArgumentHelp("A timeline (JSON, JSONL or CSV) with a netstats tracker, or - for standard input.", valueName: "timeline"))
        var timeline: String

        @OptionGroup var input: InputFormatOptions<TimelineFormatFlag>

        @OptionGroup var tracker: TrackerOptions

        @Option(help: ArgumentHelp("The netstats tracker to read, when the timeline has several.", valueName: "name"))
        var subscriber: String?

        @Option(help: ArgumentHelp("The criteria: the intended rule (default) or OpenTok's sample code (see above).", valueName: "profile"))
        var profile: PreCallProfile = .standard

        @Option(help: ArgumentHelp("Minimum window length in ms (default 3000).", valueName: "ms"))
        var window: Int?

        @Option(help: ArgumentHelp("When the verdict is taken, in ms after t = 0 (default 10000).", valueName: "ms"))
        var duration: Int?

        @Option(help: ArgumentHelp("Minimum video bandwidth in kbps (default 50; opentok-sample 150).", valueName: "kbps"))
        var videoKbps: Double?

        @Option(help: ArgumentHelp("Maximum video packet loss in percent (default 3).", valueName: "percent"))
        var videoLoss: Double?

        @Option(help: ArgumentHelp("Minimum audio bandwidth in kbps (default 25).", valueName: "kbps"))
        var audioKbps: Double?

        @Option(help: ArgumentHelp("Maximum audio packet loss in percent (default 5).", valueName: "percent"))
        var audioLoss: Double?

        @Option(help: ArgumentHelp(
            "When the verdict would be neither, check audio again this many ms later; 0 for no retest "
                + "(default 0; opentok-sample 6000).",
            valueName: "ms"))
        var audioRetest: Int?

        @Option(help: ArgumentHelp("Exit 1 unless the verdict is at least this: audio-video or audio.", valueName: "verdict"))
        var require: PreCallRequirement?

        @Option(help: ArgumentHelp("text for reading, json for tools.", valueName: "format"))
        var format: PreCallFormat = .text

        @OptionGroup var output: OutputOptions<PlainOutput>

        func validate() throws {
            if let window, window < 1 { throw ValidationError("--window must be at least 1 ms, got \(window)") }
            if let duration, duration < 0 { throw ValidationError("--duration must be 0 ms or more, got \(duration)") }
            if let audioRetest, audioRetest < 0 { throw ValidationError("--audio-retest must be 0 ms or more, got \(audioRetest)") }
            for (flag, value) in [("--video-kbps", videoKbps), ("--audio-kbps", audioKbps)] {
                if let value, !(value.isFinite && value >= 0) {
                    throw ValidationError("\(flag) must be a number of kbps >= 0, got \(value)")
                }
            }
            for (flag, value) in [("--video-loss", videoLoss), ("--audio-loss", audioLoss)] {
                if let value, !(value >= 0 && value <= 100) {
                    throw ValidationError("\(flag) must be a percentage from 0 to 100, got \(value)")
                }
            }
        }

        /// The profile's criteria with the flags given on top.
        var criteria: PreCallCriteria {
            var criteria = PreCallCriteria(profile: profile)
            if let window { criteria.windowLength = window }
            if let duration { criteria.duration = duration }
            if let videoKbps { criteria.videoKbps = videoKbps }
            if let videoLoss { criteria.videoLossPercent = videoLoss }
            if let audioKbps { criteria.audioKbps = audioKbps }
            if let audioLoss { criteria.audioLossPercent = audioLoss }
            if let audioRetest { criteria.audioRetest = audioRetest }
            return criteria
        }

        func run() throws {
            let criteria = self.criteria
            let result: PreCallResult
            do {
                var source = try TimelineReader.open(timeline, format: input.inputFormat, csvTrackers: tracker.trackers)
                result = try PreCallTest.run(&source, subscriber: subscriber, criteria: criteria).result
            } catch {
                throw CommandFailure.badInput(error.description)
            }
            if let last = result.lastSampleT, last < result.decidedAt {
                Diagnostics.warning(
                    "\(InputFile.displayName(timeline)): the last sample is at t=\(last) ms, before the verdict at "
                        + "t=\(result.decidedAt) ms; the verdict uses the windows closed by then")
            } else if result.lastSampleT == nil {
                Diagnostics.warning("\(InputFile.displayName(timeline)): the netstats tracker has no samples")
            }
            let text = format == .json ? PreCallReport.json(result) : PreCallReport.text(result, criteria: criteria, profile: profile)
            try output.write(text)
            if let require, result.verdict < require.verdict {
                throw CommandFailure(
                    message: "verdict \(result.verdict.rawValue) is worse than the required \(require.rawValue)",
                    status: .differs)
            }
        }
    }
}

enum PreCallFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--require`: the least verdict that exits 0.
enum PreCallRequirement: String, ExpressibleByArgument, CaseIterable {
    case audioVideo = "audio-video"
    case audio

    var verdict: PreCallVerdict { self == .audioVideo ? .audioVideo : .audioOnly }
}

