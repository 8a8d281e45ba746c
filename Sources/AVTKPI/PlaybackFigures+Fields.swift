/// The figures by name, for `kpi --format partial`: every number a definition set divides or adds
/// (`KPICalculator`), so KPIs computed from figures read back are the ones computed before.
extension PlaybackFigures {
    /// Each figure's name and where it is, in the order a partial file lists them; then the time
    /// in each state (`durations.NAME`, `PlaybackState` order) and `maxRebufferTime` (null: none).
    static let namedFields: [(String, any WritableKeyPath<PlaybackFigures, Int> & Sendable)] = [
        ("playbacks", \.playbacks),
        ("pauseCount", \.pauseCount),
        ("seekCount", \.seekCount),
        ("rebufferCount", \.rebufferCount),
        ("stallCount", \.stallCount),
        ("playingBeforeFirstFrame", \.playingBeforeFirstFrame),
        ("bufferingBeforeFirstFrame", \.bufferingBeforeFirstFrame),
        ("pausesAfterFirstFrame", \.pausesAfterFirstFrame),
        ("seekLatency", \.seekLatency),
        ("seekLatencyCount", \.seekLatencyCount),
        ("validJoinTime", \.validJoinTime),
        ("validJoinCount", \.validJoinCount),
        ("toFirstFrameSinceLoad", \.toFirstFrameSinceLoad),
        ("toFirstFrameSinceLoadCount", \.toFirstFrameSinceLoadCount),
        ("toFirstFrame", \.toFirstFrame),
        ("toFirstFrameCount", \.toFirstFrameCount),
        ("toFirstPicture", \.toFirstPicture),
        ("toFirstPictureCount", \.toFirstPictureCount),
        ("startTimeMetric", \.startTimeMetric),
        ("startTimeMetricCount", \.startTimeMetricCount),
        ("started", \.started),
        ("ready", \.ready),
        ("attempted", \.attempted),
        ("neverStarted", \.neverStarted),
        ("neverStartedWithoutFailure", \.neverStartedWithoutFailure),
        ("withFatalError", \.withFatalError),
        ("endedFailed", \.endedFailed),
        ("ended", \.ended),
        ("abandoned", \.abandoned),
        ("fatalErrors", \.fatalErrors),
        ("fatalErrorsBeforeStart", \.fatalErrorsBeforeStart),
        ("nonFatalErrors", \.nonFatalErrors),
        ("droppedFrames", \.droppedFrames),
        ("bandwidthBytes", \.bandwidthBytes),
        ("bandwidthTime", \.bandwidthTime),
        ("startNotRecorded", \.startNotRecorded),
        ("played.heightTime", \.played.heightTime),
        ("played.heightProduct", \.played.heightProduct),
        ("played.bitrateTime", \.played.bitrateTime),
        ("played.bitrateProduct", \.played.bitrateProduct),
        ("played.initialHeight", \.played.initialHeight),
        ("played.initialHeightCount", \.played.initialHeightCount),
        ("played.initialBitrate", \.played.initialBitrate),
        ("played.initialBitrateCount", \.played.initialBitrateCount),
        ("statsFormat.heightTime", \.statsFormat.heightTime),
        ("statsFormat.heightProduct", \.statsFormat.heightProduct),
        ("statsFormat.bitrateTime", \.statsFormat.bitrateTime),
        ("statsFormat.bitrateProduct", \.statsFormat.bitrateProduct),
        ("statsFormat.initialHeight", \.statsFormat.initialHeight),
        ("statsFormat.initialHeightCount", \.statsFormat.initialHeightCount),
        ("statsFormat.initialBitrate", \.statsFormat.initialBitrate),
        ("statsFormat.initialBitrateCount", \.statsFormat.initialBitrateCount),
        ("counters.requests", \.counters.requests),
        ("counters.loads", \.counters.loads),
        ("counters.plays", \.counters.plays),
        ("counters.ends", \.counters.ends),
        ("counters.qualityUp", \.counters.qualityUp),
        ("counters.qualityDown", \.counters.qualityDown),
        ("counters.adBreaks", \.counters.adBreaks),
        ("counters.ads", \.counters.ads),
        ("counters.adsCompleted", \.counters.adsCompleted),
        ("counters.adsSkipped", \.counters.adsSkipped),
        ("counters.adTime", \.counters.adTime),
        ("shaka.playbacks", \.shaka.playbacks),
        ("shaka.play", \.shaka.play),
        ("shaka.pause", \.shaka.pause),
        ("shaka.buffering", \.shaka.buffering),
        ("shaka.loadLatency", \.shaka.loadLatency),
        ("shaka.loadLatencyCount", \.shaka.loadLatencyCount),
        ("shaka.completion", \.shaka.completion),
        ("shaka.completionCount", \.shaka.completionCount),
    ]

    /// Every figure's name, in the order `values` gives them.
    package static let fieldNames: [String] =
        namedFields.map(\.0) + PlaybackState.allCases.map { "durations." + String(describing: $0) } + [
            "maxRebufferTime"
        ]

    /// The figures in `fieldNames` order (nil: no rebuffer, so no longest one).
    package var fieldValues: [Int?] {
        Self.namedFields.map { self[keyPath: $0.1] } + PlaybackState.allCases.map { time($0) } + [maxRebufferTime]
    }

    /// Figures from their values in `fieldNames` order; nil when there are not as many, or a
    /// figure but the longest rebuffer is missing, or one is negative (no figure is).
    package init?(fieldValues values: [Int?]) {
        guard values.count == Self.fieldNames.count else { return nil }
        self.init()
        for (n, field) in Self.namedFields.enumerated() {
            guard let value = values[n], value >= 0 else { return nil }
            self[keyPath: field.1] = value
        }
        for (n, state) in PlaybackState.allCases.enumerated() {
            guard let value = values[Self.namedFields.count + n], value >= 0 else { return nil }
            durations[state.rawValue] = value
        }
        if let longest = values[values.count - 1] {
            guard longest >= 0 else { return nil }
            maxRebufferTime = longest
        }
    }
}
