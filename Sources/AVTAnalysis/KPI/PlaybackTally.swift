/// The raw tallies of one playback (one playbackId), from its delivered events in order.
package struct PlaybackTally: Sendable {
    var requests = 0, loads = 0, plays = 0, ends = 0
    var startT: Int?
    /// Start's time since the first request (else load): OpenAVT's StartTime.
    var startupSinceRequest: Int?
    var firstAdBeginBeforeStart: Int?
    /// A seek, stop or error between the request and Start (ExoPlayer's invalid join).
    var interruptedBeforeStart = false
    var errors = 0, errorsBeforeStart = 0
    var playAfterLastError = 0
    var playTime = 0, pauseTime = 0, seekTime = 0, bufferTime = 0
    var rebufferCount = 0, rebufferTime = 0, pausedRebufferCount = 0
    var qualityUp = 0, qualityDown = 0
    var bitrateWeighted = 0.0, bitrateWeight = 0, lastBitrate: Int?
    var heightWeighted = 0.0, heightWeight = 0, lastHeight: Int?
    var adBreaks = 0, ads = 0, adsCompleted = 0, adsSkipped = 0, adTime = 0

    mutating func add(_ o: KPIObservation) {
        let delta = o.numbers["deltaPlayTime"] ?? 0
        playTime = playTime.saturatingAdding(delta)
        if errors > 0 { playAfterLastError = playAfterLastError.saturatingAdding(delta) }
        // The interval a deltaPlayTime covers ran at the rendition seen on the previous event.
        if delta > 0, let bitrate = lastBitrate {
            bitrateWeighted += Double(bitrate) * Double(delta)
            bitrateWeight = bitrateWeight.saturatingAdding(delta)
        }
        if delta > 0, let height = lastHeight {
            heightWeighted += Double(height) * Double(delta)
            heightWeight = heightWeight.saturatingAdding(delta)
        }
        if let bitrate = o.numbers["bitrate"] { lastBitrate = bitrate }
        if let height = o.numbers["resolutionHeight"] { lastHeight = height }
        let started = startT != nil
        switch o.name {
        case "MediaRequest": requests += 1
        case "StreamLoad": loads += 1
        case "Start":
            plays += 1
            if startT == nil {
                startT = o.t
                startupSinceRequest = o.numbers["timeSinceMediaRequest"] ?? o.numbers["timeSinceStreamLoad"]
            }
        case "End", "Stop", "Next":
            ends += 1
            if !started { interruptedBeforeStart = true }
        case "Error":
            errors += 1
            playAfterLastError = 0
            if !started {
                errorsBeforeStart += 1
                interruptedBeforeStart = true
            }
        case "SeekBegin":
            if !started { interruptedBeforeStart = true }
        case "PauseFinish": pauseTime = pauseTime.saturatingAdding(o.numbers["timeSincePauseBegin"] ?? 0)
        case "SeekFinish": seekTime = seekTime.saturatingAdding(o.numbers["timeSinceSeekBegin"] ?? 0)
        case "BufferFinish":
            let duration = o.numbers["timeSinceBufferBegin"] ?? 0
            bufferTime = bufferTime.saturatingAdding(duration)
            // As MetricalcCore: in playback, and it did not begin inside a pause or a seek.
            if o.inPlaybackBlock, !o.inSeekBlock {
                if o.inPauseBlock {
                    pausedRebufferCount += 1
                } else {
                    rebufferCount += 1
                    rebufferTime = rebufferTime.saturatingAdding(duration)
                }
            }
        case "QualityChangeUp": qualityUp += 1
        case "QualityChangeDown": qualityDown += 1
        case "AdBreakBegin": adBreaks += 1
        case "AdBegin":
            ads += 1
            if !started, firstAdBeginBeforeStart == nil { firstAdBeginBeforeStart = o.t }
        case "AdFinish":
            adsCompleted += 1
            adTime = adTime.saturatingAdding(o.numbers["timeSinceAdBegin"] ?? 0)
        case "AdSkip":
            adsSkipped += 1
            adTime = adTime.saturatingAdding(o.numbers["timeSinceAdBegin"] ?? 0)
        default: break
        }
    }

    /// Sums for session totals (first-value fields keep the first playback's).
    mutating func merge(_ o: PlaybackTally) {
        requests = requests.saturatingAdding(o.requests)
        loads = loads.saturatingAdding(o.loads)
        plays = plays.saturatingAdding(o.plays)
        ends = ends.saturatingAdding(o.ends)
        errors = errors.saturatingAdding(o.errors)
        errorsBeforeStart = errorsBeforeStart.saturatingAdding(o.errorsBeforeStart)
        playTime = playTime.saturatingAdding(o.playTime)
        pauseTime = pauseTime.saturatingAdding(o.pauseTime)
        seekTime = seekTime.saturatingAdding(o.seekTime)
        bufferTime = bufferTime.saturatingAdding(o.bufferTime)
        rebufferCount = rebufferCount.saturatingAdding(o.rebufferCount)
        rebufferTime = rebufferTime.saturatingAdding(o.rebufferTime)
        pausedRebufferCount = pausedRebufferCount.saturatingAdding(o.pausedRebufferCount)
        qualityUp = qualityUp.saturatingAdding(o.qualityUp)
        qualityDown = qualityDown.saturatingAdding(o.qualityDown)
        bitrateWeighted += o.bitrateWeighted
        bitrateWeight = bitrateWeight.saturatingAdding(o.bitrateWeight)
        heightWeighted += o.heightWeighted
        heightWeight = heightWeight.saturatingAdding(o.heightWeight)
        adBreaks = adBreaks.saturatingAdding(o.adBreaks)
        ads = ads.saturatingAdding(o.ads)
        adsCompleted = adsCompleted.saturatingAdding(o.adsCompleted)
        adsSkipped = adsSkipped.saturatingAdding(o.adsSkipped)
        adTime = adTime.saturatingAdding(o.adTime)
    }
}

extension PlaybackTally {
    /// Startup time under a definition set; nil when the playback never started or (ExoPlayer)
    /// its join was interrupted.
    func startupTime(_ definitions: KPIDefinitions) -> Int? {
        guard let startT, let startup = startupSinceRequest else { return nil }
        switch definitions {
        case .openavt, .cta:
            return startup
        case .mux:
            // Mux ends startup at the first frame of a pre-roll ad.
            if let adT = firstAdBeginBeforeStart { return startup - (startT - adT) }
            return startup
        case .exoplayer:
            return interruptedBeforeStart ? nil : startup
        }
    }

    var failed: Bool { errors > 0 && playAfterLastError == 0 }

    /// The KPIs of one playback, in `KPIName.all` order; inapplicable ones are absent.
    func values(_ definitions: KPIDefinitions) -> [KPI] {
        let started = startT != nil
        let attempted = requests + loads > 0
        let startup = startupTime(definitions)
        var exitBeforeStart = attempted && !started
        if definitions == .mux || definitions == .cta, errors > 0 { exitBeforeStart = false }
        return rendered(
            definitions: definitions, startup: startup, started: .bool(started),
            exitBeforeStart: .bool(exitBeforeStart),
            failed: .bool(failed))
    }

    func rendered(
        definitions: KPIDefinitions, startup: Int?, started: KPIValue, exitBeforeStart: KPIValue, failed: KPIValue
    )
        -> [KPI]
    {
        let count = definitions == .exoplayer ? rebufferCount.saturatingAdding(pausedRebufferCount) : rebufferCount
        let denominator: Int
        var frequencyBase = playTime
        switch definitions {
        case .openavt: denominator = playTime.saturatingAdding(rebufferTime)
        case .mux:
            denominator = playTime.saturatingAdding(rebufferTime).saturatingAdding(seekTime).saturatingAdding(
                startup ?? 0)
            frequencyBase = denominator
        case .exoplayer:
            denominator = playTime.saturatingAdding(startup ?? 0).saturatingAdding(rebufferTime).saturatingAdding(
                seekTime)
        case .cta:
            denominator = playTime.saturatingAdding(rebufferTime).saturatingAdding(seekTime)
            frequencyBase = denominator
        }
        var out: [KPI] = []
        if let startup { out.append(KPI("startupTime", .int(startup))) }
        out.append(KPI("started", started))
        out.append(KPI("exitBeforeVideoStart", exitBeforeStart))
        out.append(KPI("startupErrors", .int(errorsBeforeStart)))
        out.append(KPI("playbackFailed", failed))
        out.append(KPI("errorCount", .int(errors)))
        out.append(KPI("playTime", .int(playTime)))
        out.append(KPI("pauseTime", .int(pauseTime)))
        out.append(KPI("seekTime", .int(seekTime)))
        out.append(KPI("bufferTime", .int(bufferTime)))
        out.append(KPI("rebufferCount", .int(count)))
        out.append(KPI("rebufferTime", .int(rebufferTime)))
        if denominator > 0 { out.append(KPI("rebufferRatio", .double(Double(rebufferTime) / Double(denominator)))) }
        if frequencyBase > 0 {
            out.append(KPI("rebufferFrequency", .double(Double(count) * 60_000 / Double(frequencyBase))))
        }
        out.append(KPI("qualityUpCount", .int(qualityUp)))
        out.append(KPI("qualityDownCount", .int(qualityDown)))
        if bitrateWeight > 0 {
            out.append(KPI("averageBitrate", .int(Int((bitrateWeighted / Double(bitrateWeight)).rounded()))))
        }
        if heightWeight > 0 {
            out.append(KPI("averageResolutionHeight", .int(Int((heightWeighted / Double(heightWeight)).rounded()))))
        }
        out.append(KPI("adBreakCount", .int(adBreaks)))
        out.append(KPI("adCount", .int(ads)))
        out.append(KPI("adCompletedCount", .int(adsCompleted)))
        out.append(KPI("adSkippedCount", .int(adsSkipped)))
        out.append(KPI("adTime", .int(adTime)))
        out.append(KPI("plays", .int(plays)))
        out.append(KPI("ends", .int(ends)))
        out.append(KPI("requests", .int(requests)))
        out.append(KPI("loads", .int(loads)))
        return out
    }
}
