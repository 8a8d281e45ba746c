import AVTTrackers

/// `--tracker NAME[=KIND][,ads|,no-ads][,init|,no-init]`: a tracker of a CSV timeline that has no
/// `#avtreplay` settings line. Several declarations give ids in their order.
///
/// - KIND is one of TrackerKind's names (default `generic`).
/// - `ads` / `no-ads` set `isAdsTracker` (default: true for `ima` only).
/// - `init` / `no-init` set `emitTrackerInit` (default: true for every kind but `generic`).
///
/// Examples: `content=avplayer`, `ads=ima`, `content`, `ads=generic,ads`, `main=html5,no-init`.
public enum TrackerDeclaration {
    /// Parses one declaration.
    public static func parse(_ text: String) throws(UsageError) -> TrackerSpec {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let declaration = parts[0]
        let name: String
        var kind = TrackerKind.generic
        if let equals = declaration.firstIndex(of: "=") {
            name = String(declaration[..<equals])
            let kindText = String(declaration[declaration.index(after: equals)...])
            guard let known = TrackerKind(rawValue: kindText) else {
                throw UsageError(
                    "unknown tracker kind '\(kindText)' in --tracker '\(text)': expected one of "
                        + TrackerKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kind = known
        } else {
            name = declaration
        }
        guard !name.isEmpty else {
            throw UsageError("--tracker '\(text)' has no name: expected NAME[=KIND], e.g. content=avplayer")
        }
        var isAds: Bool?
        var emitInit: Bool?
        for option in parts.dropFirst() {
            switch option {
            case "ads": isAds = true
            case "no-ads": isAds = false
            case "init": emitInit = true
            case "no-init": emitInit = false
            default:
                throw UsageError(
                    "unknown option '\(option)' in --tracker '\(text)': expected ads, no-ads, init or no-init")
            }
        }
        return TrackerSpec(name: name, kind: kind, isAdsTracker: isAds, emitTrackerInit: emitInit)
    }

    /// Rejects a name declared twice: ids and CSV rows refer to trackers by name.
    public static func checkUnique(_ trackers: [TrackerSpec]) throws(UsageError) {
        var seen: Set<String> = []
        for tracker in trackers where !seen.insert(tracker.name).inserted {
            throw UsageError("--tracker '\(tracker.name)' is declared twice; tracker names must be unique.")
        }
    }
}
