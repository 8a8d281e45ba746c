import AVTOutput
import ArgumentParser

/// The ids of Mediastream events (`--format mediastream`, `--to mediastream+http(s)://`).
struct MediastreamIdOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "content_id of the Mediastream events (default: the events' contentId attribute).", valueName: "id"))
    var mediastreamContentId: String?

    @Option(
        help: ArgumentHelp(
            "unique_id (the user) of the Mediastream events (default: the events' uniqueId attribute, else the instrument id).",
            valueName: "id"))
    var mediastreamUniqueId: String?

    var options: MediastreamOptions {
        MediastreamOptions(contentId: mediastreamContentId, uniqueId: mediastreamUniqueId)
    }

    /// The flags given, by name.
    var given: [String] {
        [
            ("--mediastream-content-id", mediastreamContentId != nil),
            ("--mediastream-unique-id", mediastreamUniqueId != nil),
        ]
        .filter(\.1).map(\.0)
    }
}
