import AVTCore

/// A pre-call test's subscriber statistics (OpenTok's subscriber network stats): each `observe`
/// step is one sample of the six cumulative counters (`NetStatsCounters.keys`), and the step's `t`
/// is the sample's timestamp. Every window that closes (`NetStatsWindower`, 3000 ms) becomes one
/// `NetStatsWindow` event carrying the window's numbers; `NetStatsMetricalc` turns that event into
/// the VideoBandwidth, VideoPacketLoss, AudioBandwidth and AudioPacketLoss metrics.
open class NetStatsTracker: ScriptableTracker {
    /// The custom action of a closed window (its time attribute: `timeSinceNetStatsWindow`).
    public static let windowAction = Action("NetStatsWindow")
    /// OpenTok's TIME_WINDOW.
    public static let windowLength = 3000

    /// Bits per second (integer) of the window.
    public static let videoBandwidth = Attribute("videoBandwidth")
    /// Bits per second (integer) of the window's audio.
    public static let audioBandwidth = Attribute("audioBandwidth")
    /// Loss ratio 0…1 (double); absent when unknown (no packets in the window).
    public static let videoPacketLoss = Attribute("videoPacketLoss")
    /// The audio's loss ratio 0…1 (double); absent when unknown.
    public static let audioPacketLoss = Attribute("audioPacketLoss")

    open override class var observationRules: [String: ObservationRule] { NetStatsCounters.observationRules }

    private var counters = NetStatsCounters()
    private var windower = NetStatsWindower(length: NetStatsTracker.windowLength)
    /// The window whose event is being emitted, for `initEvent`.
    private var closing: NetStatsWindow?

    open override func observe(_ observation: Observation) {
        observe(step: [observation])
    }

    /// The step's observations together are one sample, taken after all of them are applied.
    open override func observe(step observations: [Observation]) {
        guard !observations.isEmpty else { return }
        for observation in observations { counters.apply(observation) }
        guard let window = windower.add(t: virtualNow, counters: counters) else { return }
        closing = window
        defer { closing = nil }
        emit(Self.windowAction)
    }

    /// Gives a window's event its bandwidths and loss ratios.
    open override func initEvent(_ event: consuming Event) -> Event? {
        guard var event = super.initEvent(event) else { return nil }
        if let window = closing, event.action == Self.windowAction {
            event[Self.videoBandwidth] = .int(window.video.bandwidth)
            if let loss = window.video.loss { event[Self.videoPacketLoss] = .double(loss.ratio) }
            event[Self.audioBandwidth] = .int(window.audio.bandwidth)
            if let loss = window.audio.loss { event[Self.audioPacketLoss] = .double(loss.ratio) }
        }
        return event
    }
}
