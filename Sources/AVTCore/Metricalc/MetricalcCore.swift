/// OpenAVT's standard metricalc: start time, plays, rebuffers, play time, requests,
/// loads and ends, in the order upstream returns them (PlayTime always last).
open class MetricalcCore: Metricalc {
    /// A metricalc with no state: each event's metrics depend on that event alone.
    public init() {}

    /// Does nothing: the metrics need no instrument.
    open func instrumentReady(_ instrument: Instrument) {}
    /// Does nothing: there is nothing to flush.
    open func endOfService() {}

    /// The metrics of one accepted event: StartTime and NumPlays on Start, RebufferTime and
    /// NumRebuffers on a BufferFinish in playback whose buffer began outside a pause and a seek,
    /// NumRequests on MediaRequest, NumLoads on StreamLoad, NumEnds on End, Stop or Next, then
    /// PlayTime on any event carrying `deltaPlayTime`.
    open func processMetric(_ event: Event, tracker: Tracker) -> [Metric] {
        let t = event.timestamp
        var metrics: [Metric] = []
        switch event.action {
        case .start:
            // Measured from the first request if there was one, else from the stream load.
            if let ms = event[Action.mediaRequest.timeAttribute]?.intValue {
                metrics.append(.startTime(ms, at: t))
            } else if let ms = event[Action.streamLoad.timeAttribute]?.intValue {
                metrics.append(.startTime(ms, at: t))
            }
            metrics.append(.numPlays(at: t))
        case .bufferFinish:
            // A rebuffer is a buffer inside playback that did not begin in a pause or a seek.
            if event[.inPlaybackBlock] == .bool(true), event[.inPauseBlock] == .bool(false),
                event[.inSeekBlock] == .bool(false),
                let ms = event[Action.bufferBegin.timeAttribute]?.intValue
            {
                metrics.append(.rebufferTime(ms, at: t))
                metrics.append(.numRebuffers(at: t))
            }
        case .mediaRequest:
            metrics.append(.numRequests(at: t))
        case .streamLoad:
            metrics.append(.numLoads(at: t))
        case .end, .stop, .next:
            metrics.append(.numEnds(at: t))
        default:
            break
        }
        if let ms = event[.deltaPlayTime]?.intValue {
            metrics.append(.playTime(ms, at: t))
        }
        return metrics
    }
}
