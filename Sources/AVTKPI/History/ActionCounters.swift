/// What a playback's actions count, whatever its state: OpenAVT's request/load/start/end
/// counts, quality changes and ads (the ad time runs from each AdBegin to its AdFinish or AdSkip).
package struct ActionCounters: Sendable {
    var requests = 0, loads = 0, plays = 0, ends = 0
    var qualityUp = 0, qualityDown = 0
    var adBreaks = 0, ads = 0, adsCompleted = 0, adsSkipped = 0, adTime = 0
    var adBegin: Int?

    mutating func count(_ action: String, at t: Int) {
        switch action {
        case "MediaRequest": requests += 1
        case "StreamLoad": loads += 1
        case "Start": plays += 1
        case "End", "Stop", "Next": ends += 1
        case "QualityChangeUp": qualityUp += 1
        case "QualityChangeDown": qualityDown += 1
        case "AdBreakBegin": adBreaks += 1
        case "AdBegin":
            ads += 1
            adBegin = t
        case "AdFinish", "AdSkip":
            if action == "AdFinish" { adsCompleted += 1 } else { adsSkipped += 1 }
            if let begin = adBegin { adTime = adTime.saturatingAdding(t - begin) }
            adBegin = nil
        default: break
        }
    }
}
