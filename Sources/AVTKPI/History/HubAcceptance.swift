/// Which of a tracker's lifecycle actions count, as its hub accepts them (the spec's
/// `acceptOrRejectEvent`): one Start until an End, Stop or Next, that End only after a Start,
/// and one MediaRequest and one StreamLoad per playback (the hub accepts one per tracker; a
/// later playback's own request still counts as its request). A player tracker emits a
/// StreamLoad at every BUFFERING and a Start at every READY: the first of each is the one.
struct HubAcceptance: Sendable {
    private var didMediaRequest = false, didStreamLoad = false, didStart = false, didFinish = false

    /// A new playback on the tracker: its request and load are still to come.
    mutating func newPlayback() { (didMediaRequest, didStreamLoad) = (false, false) }

    mutating func accepts(_ action: HistoryAction.Kind) -> Bool {
        // The first action after an accepted End, Stop or Next finds the playback state cleared.
        if didFinish { (didStart, didFinish) = (false, false) }
        switch action {
        case .mediaRequest:
            defer { didMediaRequest = true }
            return !didMediaRequest
        case .streamLoad:
            defer { didStreamLoad = true }
            return !didStreamLoad
        case .start:
            defer { didStart = true }
            return !didStart
        case .end, .stop, .next:
            guard didStart else { return false }
            didFinish = true
            return true
        default:
            return true
        }
    }
}
