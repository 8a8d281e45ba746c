import AVTTrackers

/// What a client can publish, best first.
package enum PreCallVerdict: String, Sendable, CaseIterable, Comparable {
    case audioVideo = "audio-video"
    case audioOnly = "audio-only"
    case neither

    /// 2 for audio-video, 1 for audio-only, 0 for neither.
    package var rank: Int {
        switch self {
        case .audioVideo: return 2
        case .audioOnly: return 1
        case .neither: return 0
        }
    }

    package static func < (a: PreCallVerdict, b: PreCallVerdict) -> Bool { a.rank < b.rank }
}
