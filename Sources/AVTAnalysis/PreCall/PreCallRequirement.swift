import AVTReplay

/// `precall --require`: the least verdict that ends the command ok.
package enum PreCallRequirement: String, Sendable, CaseIterable {
    case audioVideo = "audio-video"
    case audio

    package var verdict: PreCallVerdict { self == .audioVideo ? .audioVideo : .audioOnly }

    /// Why `verdict` does not meet the requirement; nil when it does.
    package func failure(for verdict: PreCallVerdict) -> CommandFailure? {
        guard verdict < self.verdict else { return nil }
        return CommandFailure(
            message: "verdict \(verdict.rawValue) is worse than the required \(rawValue)", status: .differs)
    }
}
