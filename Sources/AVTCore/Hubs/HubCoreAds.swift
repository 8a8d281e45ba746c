/// HubCore plus ad-break and ad state (OpenAVT-iOS behaviour). Ad state is set on every
/// tracker at once; events get the content player's position, whichever tracker sent them.
open class HubCoreAds: HubCore {
    /// Accepted AdBegin events, across all trackers.
    public var countAds: Int { adCount }
    /// Private storage behind a public view, for the reason given in `HubCore`.
    private var adCount = 0

    /// Applies the ad rules (rejecting impossible ad-break, ad and ad-pause transitions and an End inside an ad break), stamps the ad flags, `countAds` and the content tracker's position, then hands the event to HubCore.
    open override func processEvent(_ event: consuming Event, tracker: Tracker) -> Event? {
        guard let instrument else { return nil }
        let s = tracker.state
        switch event.action {
        case .adBreakBegin:
            guard !s.inAdBreak else { return nil }
            setOnAllTrackers(instrument) { $0.inAdBreak = true }
        case .adBreakFinish:
            guard s.inAdBreak else { return nil }
            setOnAllTrackers(instrument) { $0.inAdBreak = false }
        case .adBegin:
            guard !s.inAd, s.inAdBreak else { return nil }
            startPing(tracker)
            setOnAllTrackers(instrument) { $0.inAd = true }
            adCount += 1
        case .adFinish:
            // iOS stops the ping before checking, so even a rejected AdFinish stops it.
            stopPing(tracker)
            guard s.inAd else { return nil }
            setOnAllTrackers(instrument) { $0.inAd = false }
        case .end:
            // A content End inside an ad break (post-roll bookkeeping) is swallowed.
            guard !s.inAdBreak else { return nil }
        case .adPauseBegin:
            guard !s.isPaused, s.inAd else { return nil }
            tracker.state.isPaused = true
        case .adPauseFinish:
            guard s.isPaused, s.inAd else { return nil }
            tracker.state.isPaused = false
        default:
            break
        }

        event.attributes[.inAdBreakBlock] = .bool(tracker.state.inAdBreak)
        event.attributes[.inAdBlock] = .bool(tracker.state.inAd)
        event.attributes[.countAds] = .int(adCount)
        // Ascending id: with several content trackers the highest-id one with a position wins.
        for candidate in instrument.trackers
        where instrument.callGetter(.isAdsTracker, tracker: candidate) == .bool(false) {
            instrument.useGetter(.position, event: &event, tracker: candidate)
        }
        return super.processEvent(event, tracker: tracker)
    }

    private func setOnAllTrackers(_ instrument: Instrument, _ change: (inout TrackerState) -> Void) {
        for tracker in instrument.trackers { change(&tracker.state) }
    }
}
