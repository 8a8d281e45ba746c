/// The "Player Properties" panel of `chrome://media-internals` pasted as text: `property |
/// value` rows (markdown) or tab-separated, each property's last value and no times. It is no log
/// (nothing can be replayed from final values alone), but users paste it as one: it is told
/// apart from a CSV timeline so that the message names what it is and what to paste instead.
package enum ChromePropertiesPaste {
    /// Property names the panel shows (both naming eras); a paste is recognised by a few of them.
    static let names: Set<String> = [
        "render_id", "player_id", "created", "origin_url", "kFrameUrl", "frame_url", "frame_title", "url", "info",
        "pipeline_state", "pipeline_error", "error", "event", "audio_codec_name", "video_codec_name", "audio_decoder",
        "video_decoder", "kAudioTracks", "kVideoTracks", "kTextTracks", "found_audio_stream", "found_video_stream",
        "pipeline_buffering_state", "audio_buffering_state", "video_buffering_state", "kRendererName",
        "kIsAudioDecryptingDemuxerStream", "kIsVideoDecryptingDemuxerStream", "kVideoPlaybackRoughness",
        "kVideoPlaybackFreezing", "duration", "width", "height", "dimensions", "seek_target",
    ]

    /// The properties a paste shows, in order, when the text is such a panel: at least three
    /// `name value` rows, two of them with names the panel uses, and no other rows but a header
    /// and markdown's separator.
    package static func read(_ head: ArraySlice<UInt8>) -> [(name: String, value: String)]? {
        var rows: [(name: String, value: String)] = []
        var known = 0
        for line in String(decoding: head, as: UTF8.self).split(whereSeparator: \.isNewline) {
            var text = line.trimmingBlanks()
            if text.isEmpty { continue }
            if text.hasPrefix("|") { text = text.dropFirst().trimmingBlanks() }
            if text.hasSuffix("|") { text = text.dropLast().trimmingBlanks() }
            let separator: Character = text.contains("\t") ? "\t" : "|"
            let cells = text.split(separator: separator, maxSplits: 1).map { $0.trimmingBlanks() }
            guard cells.count == 2 else { return nil }
            if cells[0].allSatisfy({ $0 == "-" || $0 == ":" }) { continue }  // `-- | --`
            if cells[0].lowercased() == "property" { continue }
            guard cells[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
            if names.contains(String(cells[0])) { known += 1 }
            rows.append((String(cells[0]), String(cells[1])))
        }
        return rows.count >= 3 && known >= 2 ? rows : nil
    }

    /// What to say of such a paste: what it is, its final state and error, what to give instead.
    package static func message(_ rows: [(name: String, value: String)]) -> String {
        let final = ["pipeline_state", "event", "error", "pipeline_error"].compactMap { name in
            rows.last { $0.name == name }.map { "\(name) \($0.value.prefix(80))" }
        }
        return "a Chrome media-internals Player Properties table (each property's last value, no times): "
            + "nothing to replay" + (final.isEmpty ? "" : "; its final state: " + final.joined(separator: ", "))
            + ". Give the player's log instead: its Log table copied as text, or the JSON of Save Log"
    }
}
