import AVTJSON

/// A media-internals entry's key, decoded once from its text: the reader switches on it rather
/// than comparing strings at every step, and knows from it how much of the value it reads.
package enum ChromeEntryKey: Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    case event
    case pipelineBufferingState
    case audioBufferingState
    case videoBufferingState
    case seekTarget
    case error
    case pipelineError
    case duration
    case width
    case height
    case url
    case pipelineState
    /// A key the reader does not map (decoders, info, debug, frame URLs…), as written.
    case other(String)

    /// How much of an entry's value the Chrome reader reads, by its key.
    package enum ValueUse {
        /// All of it.
        case whole
        /// Nothing: an entry of this key is counted, never read.
        case none
        /// Its buffering state only (`ChromeMediaLogReader.bufferingState`).
        case state
    }

    private static let known: [(String, ChromeEntryKey)] = [
        ("event", .event), ("pipeline_buffering_state", .pipelineBufferingState),
        ("audio_buffering_state", .audioBufferingState), ("video_buffering_state", .videoBufferingState),
        ("seek_target", .seekTarget), ("error", .error), ("pipeline_error", .pipelineError),
        ("duration", .duration), ("width", .width), ("height", .height), ("url", .url),
        ("pipeline_state", .pipelineState),
    ]

    package init(_ text: String) {
        self = Self.known.first { $0.0 == text }?.1 ?? .other(text)
    }

    package init(stringLiteral text: String) {
        self.init(text)
    }

    /// The key from its bytes (UTF-8, unescaped): no string is made for a known key.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch bytes.count {
        case 3 where Self.matches(bytes, "url"): self = .url
        case 5 where Self.matches(bytes, "event"): self = .event
        case 5 where Self.matches(bytes, "error"): self = .error
        case 5 where Self.matches(bytes, "width"): self = .width
        case 6 where Self.matches(bytes, "height"): self = .height
        case 8 where Self.matches(bytes, "duration"): self = .duration
        case 11 where Self.matches(bytes, "seek_target"): self = .seekTarget
        case 14 where Self.matches(bytes, "pipeline_error"): self = .pipelineError
        case 14 where Self.matches(bytes, "pipeline_state"): self = .pipelineState
        case 21 where Self.matches(bytes, "audio_buffering_state"): self = .audioBufferingState
        case 21 where Self.matches(bytes, "video_buffering_state"): self = .videoBufferingState
        case 24 where Self.matches(bytes, "pipeline_buffering_state"): self = .pipelineBufferingState
        default: self = .other(String(decoding: bytes, as: UTF8.self))
        }
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        let pointer = name.utf8Start
        for offset in 0..<bytes.count where bytes[offset] != pointer[offset] { return false }
        return true
    }

    /// The key as written in the log.
    package var text: String {
        switch self {
        case .other(let text): return text
        case .event: return "event"
        case .pipelineBufferingState: return "pipeline_buffering_state"
        case .audioBufferingState: return "audio_buffering_state"
        case .videoBufferingState: return "video_buffering_state"
        case .seekTarget: return "seek_target"
        case .error: return "error"
        case .pipelineError: return "pipeline_error"
        case .duration: return "duration"
        case .width: return "width"
        case .height: return "height"
        case .url: return "url"
        case .pipelineState: return "pipeline_state"
        }
    }

    package var description: String { text }

    /// What the reader reads of this key's value (docs/player-logs.md has the mapping).
    package var valueUse: ValueUse {
        switch self {
        case .pipelineBufferingState: return .state
        case .audioBufferingState, .videoBufferingState, .other: return .none
        default: return .whole
        }
    }

    /// `value` reduced to what the reader reads of it: the same answers from
    /// `ChromeMediaLogReader.bufferingState`, nothing where nothing is read.
    package func reduced(_ value: JSONValue) -> JSONValue {
        switch valueUse {
        case .whole: return value
        case .none: return .null
        case .state:
            switch value {
            case .string: return value
            case .object(let members):
                guard case .string(let state)? = members.first(where: { $0.key == "state" })?.node.value else {
                    return .null
                }
                return .string(state)
            default: return .null
            }
        }
    }
}
