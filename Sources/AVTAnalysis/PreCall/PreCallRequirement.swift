import AVTReplay
/// `precall --require`: the least verdict that ends the command ok.
public enum PreCallRequirement: String, Sendable, CaseIterable {
    case audioVideo = "audio-video"
    case audio

    public var verdict: PreCallVerdict { self == .audioVideo ? .audioVideo : .audioOnly }

    /// Why `verdict` does not meet the requirement; nil when it does.
    public func failure(for verdict: PreCallVerdict) -> CommandFailure? {
        guard verdict < self.verdict else { return nil }
        return CommandFailure(message: "verdict \(verdict.rawValue) is worse than the required \(rawValue)", status: .differs)
    }
}
