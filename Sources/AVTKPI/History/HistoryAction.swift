/// An action as the state history reads it: its name, decoded once (per action kind of a
/// replay, or per event of an event log) into the case the history tells apart, so that no
/// action is compared with each name in turn.
struct HistoryAction: Sendable {
    /// The actions the history tells apart; every other name is `other`.
    enum Kind: UInt8, Sendable {
        case other
        case ping, trackerInit, mediaRequest, streamLoad, start, bufferBegin, bufferFinish
        case pauseBegin, pauseFinish, seekBegin, seekFinish, end, stop, next, error
        case qualityChangeUp, qualityChangeDown, adBreakBegin, adBreakFinish, adBegin, adFinish, adSkip
    }

    /// The wire name, such as `Start`.
    let name: String
    let kind: Kind
    /// Named `Ad…`: on a tracker of actions, an ad action.
    let isAd: Bool

    init(_ name: String) {
        self.name = name
        kind = Self.kinds[name] ?? .other
        isAd = name.hasPrefix("Ad")
    }

    private static let kinds: [String: Kind] = [
        "Ping": .ping, "TrackerInit": .trackerInit, "MediaRequest": .mediaRequest, "StreamLoad": .streamLoad,
        "Start": .start, "BufferBegin": .bufferBegin, "BufferFinish": .bufferFinish, "PauseBegin": .pauseBegin,
        "PauseFinish": .pauseFinish, "SeekBegin": .seekBegin, "SeekFinish": .seekFinish, "End": .end,
        "Stop": .stop, "Next": .next, "Error": .error, "QualityChangeUp": .qualityChangeUp,
        "QualityChangeDown": .qualityChangeDown, "AdBreakBegin": .adBreakBegin, "AdBreakFinish": .adBreakFinish,
        "AdBegin": .adBegin, "AdFinish": .adFinish, "AdSkip": .adSkip,
    ]
}
