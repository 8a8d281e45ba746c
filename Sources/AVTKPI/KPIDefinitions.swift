/// Named sets of KPI definitions, because the industry disagrees on several (where startup ends,
/// the rebuffer-ratio denominator, whether exits before start include failures). Each set is
/// documented in docs/kpi.md so a number can be matched with the dashboard that shows it.
public enum KPIDefinitions: String, Sendable, CaseIterable {
    /// OpenAVT's metricalc and docs: startup = Start.timeSinceMediaRequest (else StreamLoad),
    /// ads included; rebuffer ratio = rebuffer / (play + rebuffer); exits before start include
    /// failures (#loads − #starts).
    case openavt
    /// Mux Data: startup ends at the first frame of a pre-roll ad when one plays first; rebuffer
    /// ratio and frequency over watch time (`watchTime`: startup + play + rebuffer + seek + ads);
    /// seek latency from seeking to playing; exits before start exclude playbacks that failed.
    case mux
    /// ExoPlayer PlaybackStats: join time valid only if no seek, stop or error interrupted it;
    /// rebuffer count includes buffering while paused, rebuffer time does not; ratio over
    /// play + join + rebuffer + seek; abandonment includes failures.
    case exoplayer
    /// CTA-2066: initial startup from playbackRequested (MediaRequest, else StreamLoad) to the
    /// first playbackStarted; stall ratio over watched time (`watchTime`, from the request on,
    /// pauses left out); exits before start exclude failures.
    case cta
    /// Shaka Player's `getStats()` for HTML5 playbacks: play, pause and buffering time from its
    /// state history (buffering, then paused, then ended, then playing; the load and the wait
    /// after a seek are buffering), load latency (`load()` → `loadeddata`), completion percent.
    case shaka
}
