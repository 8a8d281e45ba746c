/// The AVMetrics event classes (iOS 18 / macOS 15) and their properties, under Apple's names and
/// in Apple's units: dates as ISO-8601 text, durations and media times in
/// seconds, bitrates in bits per second. Nested objects (variants, request events, errors) are
/// checked member by member.
package enum AVMetricsSchema {
    package static let playlistRequest = "AVMetricHLSPlaylistRequestEvent"
    package static let mediaSegmentRequest = "AVMetricHLSMediaSegmentRequestEvent"
    package static let contentKeyRequest = "AVMetricContentKeyRequestEvent"
    package static let mediaResourceRequest = "AVMetricMediaResourceRequestEvent"
    static let rateChange = "AVMetricPlayerItemRateChangeEvent"
    package static let stall = "AVMetricPlayerItemStallEvent"
    static let seek = "AVMetricPlayerItemSeekEvent"
    static let seekDidComplete = "AVMetricPlayerItemSeekDidCompleteEvent"
    static let likelyToKeepUp = "AVMetricPlayerItemLikelyToKeepUpEvent"
    package static let initialLikelyToKeepUp = "AVMetricPlayerItemInitialLikelyToKeepUpEvent"
    package static let variantSwitchStart = "AVMetricPlayerItemVariantSwitchStartEvent"
    package static let variantSwitch = "AVMetricPlayerItemVariantSwitchEvent"
    package static let error = "AVMetricErrorEvent"
    package static let playbackSummary = "AVMetricPlayerItemPlaybackSummaryEvent"

    // MARK: Value shapes

    static let seconds = AVMetricsShape.number(min: 0)
    static let bitsPerSecond = AVMetricsShape.number(min: 0)
    static let count = AVMetricsShape.integer(min: 0)

    /// CGSize.
    static let size = AVMetricsShape.object(
        name: "{\"width\": number ≥ 0, \"height\": number ≥ 0}",
        members: [("width", .number(min: 0)), ("height", .number(min: 0))],
        required: ["width", "height"], open: false)

    /// AVAssetVariant: `peakBitRate`, `averageBitRate` (bps), the picture size either as
    /// `videoAttributes.presentationSize` (Apple's nesting) or directly as `presentationSize`.
    static let variant = AVMetricsShape.object(
        name: "a variant {\"peakBitRate\", \"averageBitRate\", \"presentationSize\", \"videoAttributes\", \"url\"}",
        members: [
            ("peakBitRate", bitsPerSecond), ("averageBitRate", bitsPerSecond), ("presentationSize", size),
            ("url", .string),
            (
                "videoAttributes",
                .object(
                    name: "{\"presentationSize\", \"nominalFrameRate\", \"codecTypes\", \"videoRange\"}",
                    members: [
                        ("presentationSize", size), ("nominalFrameRate", .number(min: 0)),
                        ("codecTypes", .array(of: .string)),
                        ("videoRange", .string),
                    ], required: [], open: false)
            ),
            (
                "audioAttributes",
                .object(
                    name: "{\"formatIDs\"}", members: [("formatIDs", .array(of: .string))], required: [], open: false)
            ),
        ], required: [], open: false)

    /// NSRange.
    static let byteRange = AVMetricsShape.object(
        name: "{\"location\": integer ≥ 0, \"length\": integer ≥ 0}",
        members: [("location", count), ("length", count)],
        required: ["location", "length"], open: false)

    /// CMTimeRange in seconds.
    static let timeRange = AVMetricsShape.object(
        name: "{\"start\": seconds, \"duration\": seconds ≥ 0}",
        members: [("start", .number(min: nil)), ("duration", seconds)],
        required: ["start", "duration"], open: false)

    /// NSError's public face.
    static let nsError = AVMetricsShape.object(
        name: "an error {\"domain\": string, \"code\": integer, \"localizedDescription\": string}",
        members: [("domain", .string), ("code", .integer(min: nil)), ("localizedDescription", .string)], required: [],
        open: false)

    /// URLSessionTaskMetrics: only the HTTP status of each transaction's response is read; every
    /// other member of its many is allowed and ignored.
    static let networkTransactionMetrics = AVMetricsShape.object(
        name: "{\"transactionMetrics\": [{\"response\": {\"statusCode\": integer}}, …]}",
        members: [
            (
                "transactionMetrics",
                .array(
                    of: .object(
                        name: "{\"response\": {\"statusCode\": integer}, …}",
                        members: [
                            (
                                "response",
                                .object(
                                    name: "{\"statusCode\": integer 100–599, …}",
                                    members: [("statusCode", .integer(min: 100))], required: [], open: true)
                            )
                        ], required: [], open: true))
            )
        ], required: [], open: true)

    static let mediaType = AVMetricsShape.string

    // MARK: Classes

    static let base: [(String, AVMetricsShape)] = [
        ("date", .date), ("mediaTime", .number(min: nil)), ("sessionID", .string),
    ]

    private static let rateChangeProperties: [(String, AVMetricsShape)] = [
        ("rate", .number(min: nil)), ("previousRate", .number(min: nil)), ("variant", variant),
    ]
    private static let likelyToKeepUpProperties: [(String, AVMetricsShape)] = [
        ("timeTaken", seconds), ("variant", variant), ("loadedTimeRanges", .array(of: timeRange)),
    ]

    /// Each class's own properties (the base ones come on top), in Apple's order.
    static let classes: [(String, [(String, AVMetricsShape)])] = [
        (
            playlistRequest,
            [
                ("url", .string), ("isMultivariantPlaylist", .bool), ("mediaType", mediaType),
                ("mediaResourceRequestEvent", .event(className: mediaResourceRequest)),
            ]
        ),
        (
            mediaSegmentRequest,
            [
                ("url", .string), ("isMapSegment", .bool), ("mediaType", mediaType), ("byteRange", byteRange),
                ("indexFileURL", .string),
                ("segmentDuration", seconds), ("mediaResourceRequestEvent", .event(className: mediaResourceRequest)),
            ]
        ),
        (
            contentKeyRequest,
            [
                ("contentKeySpecifier", .string), ("mediaType", mediaType), ("isClientInitiated", .bool),
                ("mediaResourceRequestEvent", .event(className: mediaResourceRequest)),
            ]
        ),
        (
            mediaResourceRequest,
            [
                ("url", .string), ("serverAddress", .string), ("requestStartTime", .date), ("requestEndTime", .date),
                ("responseStartTime", .date), ("responseEndTime", .date), ("byteRange", byteRange),
                ("wasReadFromCache", .bool),
                ("errorEvent", .event(className: error)), ("networkTransactionMetrics", networkTransactionMetrics),
            ]
        ),
        (rateChange, rateChangeProperties),
        (stall, rateChangeProperties),
        (seek, rateChangeProperties),
        (seekDidComplete, rateChangeProperties + [("didSeekInBuffer", .bool)]),
        (likelyToKeepUp, likelyToKeepUpProperties),
        (
            initialLikelyToKeepUp,
            likelyToKeepUpProperties + [
                ("playlistRequestEvents", .array(of: .event(className: playlistRequest))),
                ("mediaSegmentRequestEvents", .array(of: .event(className: mediaSegmentRequest))),
                ("contentKeyRequestEvents", .array(of: .event(className: contentKeyRequest))),
            ]
        ),
        (
            variantSwitchStart,
            [("fromVariant", variant), ("toVariant", variant), ("loadedTimeRanges", .array(of: timeRange))]
        ),
        (
            variantSwitch,
            [
                ("fromVariant", variant), ("toVariant", variant), ("didSucceed", .bool),
                ("loadedTimeRanges", .array(of: timeRange)),
            ]
        ),
        (error, [("error", nsError), ("didRecover", .bool)]),
        (
            playbackSummary,
            [
                ("errorEvent", .event(className: error)), ("recoverableErrorCount", count), ("stallCount", count),
                ("variantSwitchCount", count), ("mediaResourceRequestCount", count), ("playbackDuration", seconds),
                ("timeSpentInInitialStartup", seconds), ("timeSpentRecoveringFromStall", seconds),
                ("timeWeightedAverageBitrate", bitsPerSecond), ("timeWeightedPeakBitrate", bitsPerSecond),
            ]
        ),
    ]

    static let classNames = classes.map(\.0)

    /// Every property of a class, base ones first; nil for an unknown class.
    static func properties(of className: String) -> [(String, AVMetricsShape)]? {
        classes.first { $0.0 == className }.map { base + $0.1 }
    }

    /// What the action mapping cannot do without.
    static func required(of className: String) -> [String] {
        switch className {
        case playlistRequest: return ["isMultivariantPlaylist"]
        case rateChange: return ["rate", "previousRate"]
        case likelyToKeepUp, initialLikelyToKeepUp: return ["timeTaken"]
        case variantSwitch: return ["fromVariant", "toVariant", "didSucceed"]
        case error: return ["didRecover"]
        default: return []
        }
    }

    /// The union of every class's properties: each name has the same shape in every class that
    /// has it, so one rule per key checks the value; which keys go with which `event` is checked
    /// on the step as a whole.
    static let allProperties: [(String, AVMetricsShape)] = {
        var result: [(String, AVMetricsShape)] = base
        for (_, properties) in classes {
            for property in properties where !result.contains(where: { $0.0 == property.0 }) { result.append(property) }
        }
        return result
    }()
}
