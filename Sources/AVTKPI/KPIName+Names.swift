extension KPIName {
    /// `startupTime` (ms): per definition set (docs/kpi.md).
    public static let startupTime = KPIName("startupTime")
    /// `startTimeMetric` (ms): the Start's `timeSinceMediaRequest`, else `timeSinceStreamLoad`, as the hub delivered
    /// it: what an OpenAVT dashboard's StartTime shows (measured from the tracker's first request).
    public static let startTimeMetric = KPIName("startTimeMetric")
    /// `started` (flag): reached the first frame (exoplayer: was ever ready, `hasBeenReady`).
    public static let started = KPIName("started")
    /// `exitBeforeVideoStart` (flag): per definition set (docs/kpi.md).
    public static let exitBeforeVideoStart = KPIName("exitBeforeVideoStart")
    /// `ended` (flag): reached ENDED.
    public static let ended = KPIName("ended")
    /// `abandoned` (flag): left before it ended: a new playback began, or it was stopped.
    public static let abandoned = KPIName("abandoned")
    /// `startupErrors` (count): fatal errors before the first frame.
    public static let startupErrors = KPIName("startupErrors")
    /// `playbackFailed` (flag): exoplayer, mux: a fatal error at any point; openavt, cta: the playback ended in the
    /// failure.
    public static let playbackFailed = KPIName("playbackFailed")
    /// `errorCount` (count): fatal + non-fatal errors.
    public static let errorCount = KPIName("errorCount")
    /// `fatalErrorCount` (count): fatal errors (Error, `playerError`, a failed item); non-fatal (`loadError`,
    /// `errorLogEvent`).
    public static let fatalErrorCount = KPIName("fatalErrorCount")
    /// `nonFatalErrorCount` (count): fatal errors (Error, `playerError`, a failed item); non-fatal (`loadError`,
    /// `errorLogEvent`).
    public static let nonFatalErrorCount = KPIName("nonFatalErrorCount")
    /// `playTime` (ms): time playing.
    public static let playTime = KPIName("playTime")
    /// `pauseTime` (ms): time paused or paused while buffering; entries into them.
    public static let pauseTime = KPIName("pauseTime")
    /// `pauseCount` (count): time paused or paused while buffering; entries into them.
    public static let pauseCount = KPIName("pauseCount")
    /// `seekTime` (ms): time seeking; seeks; seek time ÷ seeks.
    public static let seekTime = KPIName("seekTime")
    /// `seekCount` (count): time seeking; seeks; seek time ÷ seeks.
    public static let seekCount = KPIName("seekCount")
    /// `meanSeekTime` (ms): time seeking; seeks; seek time ÷ seeks.
    public static let meanSeekTime = KPIName("meanSeekTime")
    /// `meanSeekLatency` (ms): mux only: Mux's seek latency, from `seeking` until `playing` again (the buffering
    /// after a seek included), per seek the viewer waited for: several seeks before playing again are one wait, and
    /// a seek that a pause, an end, an error or an ad interrupts before playing has none (the viewer was not
    /// waiting); Σ waits ÷ waits.
    public static let meanSeekLatency = KPIName("meanSeekLatency")
    /// `waitTime` (ms): join + buffering + seeking.
    public static let waitTime = KPIName("waitTime")
    /// `bufferTime` (ms): join + every buffering state.
    public static let bufferTime = KPIName("bufferTime")
    /// `watchTime` (ms): mux, cta only: time watching or attempting to watch, see below.
    public static let watchTime = KPIName("watchTime")
    /// `rebufferCount` (count): exoplayer: entering any buffering state from a non-buffering one (paused buffering
    /// included); others: stalls, entering buffering (not paused) from a non-buffering state.
    public static let rebufferCount = KPIName("rebufferCount")
    /// `rebufferTime` (ms): exoplayer: time buffering; others: buffering and suppressed buffering.
    public static let rebufferTime = KPIName("rebufferTime")
    /// `maxRebufferTime` (ms): the longest rebuffer.
    public static let maxRebufferTime = KPIName("maxRebufferTime")
    /// `meanRebufferTime` (ms): exoplayer: (buffering + paused buffering) ÷ rebuffers; others: rebuffer time ÷
    /// stalls.
    public static let meanRebufferTime = KPIName("meanRebufferTime")
    /// `rebufferRatio` (ratio): rebuffer time ÷ the set's denominator.
    public static let rebufferRatio = KPIName("rebufferRatio")
    /// `rebufferFrequency` (1/min): rebuffers per minute of the set's base.
    public static let rebufferFrequency = KPIName("rebufferFrequency")
    /// `qualityUpCount` (count): QualityChangeUp / QualityChangeDown actions.
    public static let qualityUpCount = KPIName("qualityUpCount")
    /// `qualityDownCount` (count): QualityChangeUp / QualityChangeDown actions.
    public static let qualityDownCount = KPIName("qualityDownCount")
    /// `initialVideoBitrate` (bit/s): the first played format's bitrate and height.
    public static let initialVideoBitrate = KPIName("initialVideoBitrate")
    /// `averageBitrate` (bit/s): weighted by the time playing at each format (exoplayer: a long division, like
    /// `getMeanVideoFormatBitrate`/`Height`; others rounded); on an ExoPlayer, the exoplayer set's formats are
    /// events.
    public static let averageBitrate = KPIName("averageBitrate")
    /// `initialVideoHeight` (px): the first played format's bitrate and height.
    public static let initialVideoHeight = KPIName("initialVideoHeight")
    /// `averageResolutionHeight` (px): weighted by the time playing at each format (exoplayer: a long division, like
    /// `getMeanVideoFormatBitrate`/`Height`; others rounded); on an ExoPlayer, the exoplayer set's formats are
    /// events.
    public static let averageResolutionHeight = KPIName("averageResolutionHeight")
    /// `droppedFrames` (count): dropped video frames.
    public static let droppedFrames = KPIName("droppedFrames")
    /// `meanBandwidth` (bit/s): bytes transferred × 8000 ÷ transfer time in ms, a long division, in every set;
    /// absent without transfer measurements (AVPlayer's `bytesTransferred` and `transferDuration`, which the access
    /// log gives).
    public static let meanBandwidth = KPIName("meanBandwidth")
    /// `adBreakCount` (count): AdBreakBegin, AdBegin, AdFinish, AdSkip actions.
    public static let adBreakCount = KPIName("adBreakCount")
    /// `adCount` (count): AdBreakBegin, AdBegin, AdFinish, AdSkip actions.
    public static let adCount = KPIName("adCount")
    /// `adCompletedCount` (count): AdBreakBegin, AdBegin, AdFinish, AdSkip actions.
    public static let adCompletedCount = KPIName("adCompletedCount")
    /// `adSkippedCount` (count): AdBreakBegin, AdBegin, AdFinish, AdSkip actions.
    public static let adSkippedCount = KPIName("adSkippedCount")
    /// `adTime` (ms): Σ AdBegin → AdFinish or AdSkip.
    public static let adTime = KPIName("adTime")
    /// `plays` (count): Start; End/Stop/Next; MediaRequest; StreamLoad actions the tracker emitted.
    public static let plays = KPIName("plays")
    /// `ends` (count): Start; End/Stop/Next; MediaRequest; StreamLoad actions the tracker emitted.
    public static let ends = KPIName("ends")
    /// `requests` (count): Start; End/Stop/Next; MediaRequest; StreamLoad actions the tracker emitted.
    public static let requests = KPIName("requests")
    /// `loads` (count): Start; End/Stop/Next; MediaRequest; StreamLoad actions the tracker emitted.
    public static let loads = KPIName("loads")
    /// `bufferingTime` (ms): shaka only: time in Shaka's buffering state.
    public static let bufferingTime = KPIName("bufferingTime")
    /// `loadLatency` (ms): shaka only: `load()` (the element's `loadstart`) → its first `loadeddata`.
    public static let loadLatency = KPIName("loadLatency")
    /// `completionPercent` (%): shaka only: the highest `Math.round(100 × currentTime ÷ duration)` the element
    /// reached; absent without a `duration`.
    public static let completionPercent = KPIName("completionPercent")
}
