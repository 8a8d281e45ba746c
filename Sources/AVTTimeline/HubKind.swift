import AVTCore
import AVTJSON
import AVTTrackers

/// Which hub a replay runs through.
public enum HubKind: String, Sendable, CaseIterable {
    /// OpenAVT's HubCore.
    case core
    /// OpenAVT's HubCoreAds (HubCore plus ad breaks and ads).
    case ads
}
