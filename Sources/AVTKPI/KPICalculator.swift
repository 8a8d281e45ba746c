/// Every definition set as a function of a playback's history (its `PlaybackFigures`), in
/// `KPIName.all` order; a KPI that does not apply, or that the input cannot tell, is absent.
/// docs/kpi.md gives each KPI's definition and source per set.
package enum KPICalculator {
    /// `flags`: a playback's yes/no KPIs as booleans; for totals, the number of playbacks.
    package static func values(_ f: PlaybackFigures, _ definitions: KPIDefinitions, flags: Bool) -> [KPI] {
        if definitions == .shaka { return f.shaka.values }
        let exo = definitions == .exoplayer
        func flag(_ n: Int) -> KPIValue { flags ? .bool(n > 0) : .int(n) }
        var out: [KPI] = []
        func add(_ name: String, _ value: KPIValue?) { if let value { out.append(KPI(name, value)) } }
        func mean(_ sum: Int, _ count: Int, exact: Bool) -> KPIValue? {
            guard count > 0 else { return nil }
            // PlaybackStats divides longs; the others round to the nearest ms.
            if exact { return .int(sum / count) }
            let rounded = (Double(sum) / Double(count)).rounded()
            return .int(rounded >= 9.2e18 ? .max : rounded <= -9.2e18 ? .min : Int(rounded))
        }
        // Before the first frame, PLAYING (a play request on a player that has not rendered yet)
        // and stalls are startup to every set but PlaybackStats, which counts its states.
        let play = exo ? f.time(.playing) : max(0, f.time(.playing) - f.playingBeforeFirstFrame)
        let join = f.time(.joining)
        let seek = f.time(.seeking)
        let rebuffer =
            exo
            ? f.time(.buffering)
            : max(
                0,
                f.time(.buffering).saturatingAdding(f.time(.suppressedBuffering)) - f.bufferingBeforeFirstFrame)
        let rebufferCount = exo ? f.rebufferCount : f.stallCount
        let wait = join.saturatingAdding(f.time(.buffering)).saturatingAdding(seek)

        switch definitions {
        case .exoplayer: add("startupTime", mean(f.validJoinTime, f.validJoinCount, exact: true))
        case .openavt: add("startupTime", mean(f.toFirstFrameSinceLoad, f.toFirstFrameSinceLoadCount, exact: false))
        case .cta: add("startupTime", mean(f.toFirstFrame, f.toFirstFrameCount, exact: false))
        case .mux: add("startupTime", mean(f.toFirstPicture, f.toFirstPictureCount, exact: false))
        case .shaka: break
        }
        add("startTimeMetric", mean(f.startTimeMetric, f.startTimeMetricCount, exact: false))
        add("started", flag(exo ? f.ready : f.started))
        switch definitions {
        case .exoplayer: add("exitBeforeVideoStart", flag(max(0, f.attempted - f.ready)))
        case .openavt: add("exitBeforeVideoStart", flag(f.neverStarted))
        case .mux, .cta, .shaka: add("exitBeforeVideoStart", flag(f.neverStartedWithoutFailure))
        }
        add("ended", flag(f.ended))
        add("abandoned", flag(f.abandoned))
        add("startupErrors", .int(f.fatalErrorsBeforeStart))
        add("playbackFailed", flag(definitions == .exoplayer || definitions == .mux ? f.withFatalError : f.endedFailed))
        add("errorCount", .int(f.fatalErrors.saturatingAdding(f.nonFatalErrors)))
        add("fatalErrorCount", .int(f.fatalErrors))
        add("nonFatalErrorCount", .int(f.nonFatalErrors))
        add("playTime", .int(play))
        add("pauseTime", .int(f.time(.paused).saturatingAdding(f.time(.pausedBuffering))))
        // A player ready and waiting for its first play is paused to PlaybackStats
        // (`updatePlaybackState` counts every entry into PAUSED); to the others, a pause is a
        // viewer's, after the first frame.
        add("pauseCount", .int(exo ? f.pauseCount : f.pausesAfterFirstFrame))
        add("seekTime", .int(seek))
        add("seekCount", .int(f.seekCount))
        add("meanSeekTime", mean(seek, f.seekCount, exact: exo))
        // Mux's seek latency: seeking until playing again, the buffering after the seek included.
        if definitions == .mux { add("meanSeekLatency", mean(f.seekLatency, f.seekLatencyCount, exact: false)) }
        add("waitTime", .int(wait))
        add(
            "bufferTime",
            .int(
                join.saturatingAdding(f.time(.buffering)).saturatingAdding(f.time(.pausedBuffering)).saturatingAdding(
                    f.time(.suppressedBuffering))))
        let (ratioBase, frequencyBase) = bases(f, definitions, play: play, wait: wait, rebuffer: rebuffer)
        // Mux's and CTA's watch time is their ratios' denominator: shown, a ratio can be checked.
        if definitions == .mux || definitions == .cta { add("watchTime", .int(ratioBase)) }
        add("rebufferCount", .int(rebufferCount))
        add("rebufferTime", .int(rebuffer))
        add("maxRebufferTime", f.maxRebufferTime.map(KPIValue.int))
        if exo {
            // getMeanSingleRebufferTimeMs: BUFFERING and PAUSED_BUFFERING over every rebuffer.
            add(
                "meanRebufferTime",
                mean(f.time(.buffering).saturatingAdding(f.time(.pausedBuffering)), rebufferCount, exact: true))
        } else {
            add("meanRebufferTime", mean(rebuffer, rebufferCount, exact: false))
        }
        if exo {
            // getRebufferTimeRatio and getRebufferRate: 0.0 over an empty denominator.
            add("rebufferRatio", .double(ratioBase > 0 ? Double(rebuffer) / Double(ratioBase) : 0))
            add("rebufferFrequency", .double(play > 0 ? Double(rebufferCount) * 60_000 / Double(play) : 0))
        } else {
            if ratioBase > 0 { add("rebufferRatio", .double(Double(rebuffer) / Double(ratioBase))) }
            if frequencyBase > 0 {
                add("rebufferFrequency", .double(Double(rebufferCount) * 60_000 / Double(frequencyBase)))
            }
        }
        add("qualityUpCount", .int(f.counters.qualityUp))
        add("qualityDownCount", .int(f.counters.qualityDown))
        // PlaybackStats takes ExoPlayer's formats as events of a batch; the others, as played.
        let format = exo ? f.statsFormat : f.played
        add("initialVideoBitrate", mean(format.initialBitrate, format.initialBitrateCount, exact: exo))
        add("averageBitrate", mean(format.bitrateProduct, format.bitrateTime, exact: exo))
        add("initialVideoHeight", mean(format.initialHeight, format.initialHeightCount, exact: exo))
        add("averageResolutionHeight", mean(format.heightProduct, format.heightTime, exact: exo))
        add("droppedFrames", .int(f.droppedFrames))
        // PlaybackStats' getMeanBandwidth: bytes × 8000 ÷ transfer ms, a long division, in
        // every set (no other set defines a throughput).
        if f.bandwidthTime > 0 {
            let bits = f.bandwidthBytes.multipliedReportingOverflow(by: 8000)
            add("meanBandwidth", .int(bits.overflow ? .max : bits.partialValue / f.bandwidthTime))
        }
        add("adBreakCount", .int(f.counters.adBreaks))
        add("adCount", .int(f.counters.ads))
        add("adCompletedCount", .int(f.counters.adsCompleted))
        add("adSkippedCount", .int(f.counters.adsSkipped))
        add("adTime", .int(f.counters.adTime))
        add("plays", .int(f.counters.plays))
        add("ends", .int(f.counters.ends))
        add("requests", .int(f.counters.requests))
        add("loads", .int(f.counters.loads))
        return out
    }

    /// The rebuffer ratio's and frequency's denominators: ExoPlayer's play + wait time and play
    /// time; OpenAVT's play + rebuffer and play time; Mux's watch time and CTA's watched time
    /// (from the request on, paused time left out: join, play, rebuffer, seek, ads and the wait
    /// for the first frame).
    static func bases(_ f: PlaybackFigures, _ definitions: KPIDefinitions, play: Int, wait: Int, rebuffer: Int)
        -> (ratio: Int, frequency: Int)
    {
        switch definitions {
        case .exoplayer: return (play.saturatingAdding(wait), play)
        case .openavt: return (play.saturatingAdding(rebuffer), play)
        case .mux, .cta, .shaka:
            let watch = [
                f.time(.joining), play, f.time(.suppressed), rebuffer, f.time(.seeking), f.time(.interruptedByAd),
                f.playingBeforeFirstFrame, f.bufferingBeforeFirstFrame,
            ].reduce(0) { $0.saturatingAdding($1) }
            return (watch, watch)
        }
    }
}
