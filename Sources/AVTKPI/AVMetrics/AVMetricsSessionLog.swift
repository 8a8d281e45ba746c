import AVTJSON
import AVTTimeline
import AVTTrackers

/// What `kpi` keeps of one AVMetrics tracker's events: the requests, the initial
/// likely-to-keep-up, the variant switches, the error and stall counts and the playback summary.
/// Fed one event at a time during the replay.
package struct AVMetricsSessionLog: Sendable {
    /// A variant switch: when it started (its start event, else the switch itself) and ended.
    package struct VariantSwitch: Sendable, Equatable {
        package var start: Int
        package var end: Int
        package var fromBitrate: Double?
        package var toBitrate: Double?
        package var didSucceed: Bool
    }

    /// The initial likely-to-keep-up event: when (t), `timeTaken` in ms and the requests it lists.
    package struct InitialLikelyToKeepUp: Sendable, Equatable {
        package var t: Int
        package var timeTaken: Int
        package var requests: [AVMetricsRequest]
    }

    /// The playback summary's counters and times, in Apple's units (seconds, bps).
    package struct Summary: Sendable, Equatable {
        package var stallCount: Int?
        package var variantSwitchCount: Int?
        package var recoverableErrorCount: Int?
        package var mediaResourceRequestCount: Int?
        package var timeSpentInInitialStartup: Double?
        package var timeSpentRecoveringFromStall: Double?
        package var playbackDuration: Double?
        package var timeWeightedAverageBitrate: Double?
        package var timeWeightedPeakBitrate: Double?
    }

    /// Epoch ms of virtual t = 0: dates inside events are placed on the timeline with it.
    package let startTime: Int
    package private(set) var requests: [AVMetricsRequest] = []
    package private(set) var initialLikelyToKeepUp: InitialLikelyToKeepUp?
    package private(set) var variantSwitches: [VariantSwitch] = []
    package private(set) var stallEvents = 0
    package private(set) var recoveredErrors = 0
    package private(set) var fatalErrors = 0
    package private(set) var summary: Summary?
    private var seen: Set<String> = []
    private var pendingSwitchStart: Int?

    package init(startTime: Int) { self.startTime = startTime }

    /// Adds one event at virtual time `t`.
    package mutating func add(_ record: AVMetricsRecord, t: Int) {
        if let request = AVMetricsRequest(record, startTime: startTime) {
            addRequest(request)
            return
        }
        switch record.event {
        case AVMetricsSchema.initialLikelyToKeepUp where initialLikelyToKeepUp == nil:
            var listed: [AVMetricsRequest] = []
            for (key, className) in [
                ("playlistRequestEvents", AVMetricsSchema.playlistRequest),
                ("contentKeyRequestEvents", AVMetricsSchema.contentKeyRequest),
                ("mediaSegmentRequestEvents", AVMetricsSchema.mediaSegmentRequest),
            ] {
                guard case .array(let items)? = record[key] else { continue }
                for item in items {
                    if let request = AVMetricsRequest(
                        AVMetricsRecord(className: className, object: item.value), startTime: startTime)
                    {
                        listed.append(request)
                        addRequest(request)
                    }
                }
            }
            // Without the lists (an app that did not serialize them), the requests seen so far.
            if listed.isEmpty { listed = requests }
            let taken = record.number("timeTaken").flatMap(AVMetricsValue.milliseconds(fromSeconds:)) ?? 0
            initialLikelyToKeepUp = InitialLikelyToKeepUp(t: t, timeTaken: taken, requests: listed)
        case AVMetricsSchema.stall:
            stallEvents += 1
        case AVMetricsSchema.error:
            if record.bool("didRecover") == true { recoveredErrors += 1 } else { fatalErrors += 1 }
        case AVMetricsSchema.variantSwitchStart:
            pendingSwitchStart = t
        case AVMetricsSchema.variantSwitch:
            variantSwitches.append(
                VariantSwitch(
                    start: pendingSwitchStart ?? t, end: t, fromBitrate: record.variant("fromVariant")?.bitrate,
                    toBitrate: record.variant("toVariant")?.bitrate, didSucceed: record.bool("didSucceed") == true))
            pendingSwitchStart = nil
        case AVMetricsSchema.playbackSummary:
            summary = Summary(
                stallCount: record.integer("stallCount"), variantSwitchCount: record.integer("variantSwitchCount"),
                recoverableErrorCount: record.integer("recoverableErrorCount"),
                mediaResourceRequestCount: record.integer("mediaResourceRequestCount"),
                timeSpentInInitialStartup: record.number("timeSpentInInitialStartup"),
                timeSpentRecoveringFromStall: record.number("timeSpentRecoveringFromStall"),
                playbackDuration: record.number("playbackDuration"),
                timeWeightedAverageBitrate: record.number("timeWeightedAverageBitrate"),
                timeWeightedPeakBitrate: record.number("timeWeightedPeakBitrate"))
        default:
            break
        }
    }

    /// Each distinct request once (the same one may come standalone and inside the initial
    /// likely-to-keep-up event): same category, URL and start time.
    private mutating func addRequest(_ request: AVMetricsRequest) {
        guard seen.insert(request.identity).inserted else { return }
        requests.append(request)
    }
}
