/// What a playback's actions count, whatever its state: OpenAVT's request/load/start/end
/// counts, quality changes and ads (the ad time runs from each AdBegin to its AdFinish or AdSkip).
package struct ActionCounters: Sendable {
    var requests = 0, loads = 0, plays = 0, ends = 0
    var qualityUp = 0, qualityDown = 0
    var adBreaks = 0, ads = 0, adsCompleted = 0, adsSkipped = 0, adTime = 0
    var adBegin: Int?

    mutating func count(_ action: HistoryAction.Kind, at t: Int) {
        switch action {
        case .mediaRequest: requests += 1
        case .streamLoad: loads += 1
        case .start: plays += 1
        case .end, .stop, .next: ends += 1
        case .qualityChangeUp: qualityUp += 1
        case .qualityChangeDown: qualityDown += 1
        case .adBreakBegin: adBreaks += 1
        case .adBegin:
            ads += 1
            adBegin = t
        case .adFinish, .adSkip:
            if action == .adFinish { adsCompleted += 1 } else { adsSkipped += 1 }
            if let begin = adBegin { adTime = adTime.saturatingAdding(t - begin) }
            adBegin = nil
        default: break
        }
    }
}
