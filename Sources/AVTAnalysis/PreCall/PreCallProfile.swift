import AVTTrackers

/// Named sets of pre-call criteria.
package enum PreCallProfile: String, Sendable, CaseIterable {
    /// The rule as OpenTok's sample README means it (with its backwards boolean read the right way
    /// round): video needs 50 kbps and ≤ 3 % loss, audio 25 kbps and ≤ 5 %, a loss must be known
    /// to pass, and audio-video needs audio to pass too.
    case standard = "default"
    /// OpenTok's iOS sample code exactly (OTNetworkTest.m, ViewController.m).
    case openTokSample = "opentok-sample"
}
