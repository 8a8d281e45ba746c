import AVTCore
import AVTJSON
import AVTTrackers

/// Chrome's `chrome://media-internals` player log read as a timeline with one `html5` tracker
/// named `content` (docs/player-logs.md): the saved JSON (array of players, one player, or the
/// raw players map) or the log table copied as text. Each player is its own playback: the
/// previous one gets a `Stop` and the next is laid on the virtual clock right after it.
///
/// Entries are stored in arrival order, which is not always time order: a window of the last
/// `reorderWindow` entries is kept sorted (stably) by time, so memory stays bounded; an entry
/// later than that window is read at the time already reached, with a warning.
package struct ChromeMediaLogReader: TimelineSource {
    static let reorderWindow = 4096

    private struct Entry {
        var time: Int
        var key: ChromeEntryKey
        var value: JSONValue
        var line: Int
    }

    package let name: String
    package let settings: TimelineSettings
    /// Only the players are followed, for `countPlayers`: entries are applied as they come and
    /// a player's entries are passed over unparsed once it has a step.
    private let counting: Bool
    /// What the log holds that the html5 tracker cannot observe yet.
    package private(set) var unmapped = PlayerLogCounts()
    /// Players with entries that became steps, so far.
    package var players: Int { playerIndex + (playerHasSteps ? 1 : 0) }

    /// The log's shape: one of the two is set. Two optionals rather than an enum with payloads,
    /// so each is mutated in place: taken out of an enum to be read, a scanner's buffers were
    /// shared with the copy left behind and copied on every entry.
    private var scanner: ChromeLogScanner?
    private var lines: LineReader?
    private var warnings: PlayerLogWarnings
    private var window: [Entry] = []
    private var windowHead = 0
    private var queue = StepQueue()
    private var atEnd = false
    private var entries = 0
    private var skippedRows = 0

    /// Players with steps before the current one; the current one's tracker.
    private var playerIndex = 0
    private var tracker = 0
    private var sharedWarned = false

    // Time.
    private var offset = 0
    private var playerTime = 0
    private var lastT = 0
    /// The time of the last step pushed.
    private var lastStepT = 0

    // The element as the log showed it.
    private var playerHasSteps = false
    /// The current player has entries; one that ends without a step never loaded media.
    private var playerHasEntries = false
    private var playersWithoutMedia = 0
    /// Whether the log may have begun after the player did, until an entry tells (see
    /// `apply`): Chrome counts from a player's first entry, so a first entry past 0 ms (a copied
    /// table, a cut paste) puts it in doubt. Nil before the player's first entry.
    private var startInDoubt: Bool?
    /// The player's next step carries `midSession`: its start is not in the log.
    private var markNext = false
    /// Entries that came while the start was in doubt, before one that decides it.
    private var held: [Entry] = []
    private var loaded = false
    private var loadedData = false
    private var playRequested = false
    private var paused = true
    private var playing = false
    private var seeking = false
    private var ended = false
    private var errored = false
    /// The `properties` of the player being read, and of the next (they precede its entries).
    private var playerProperties: (value: JSONValue, line: Int)?
    private var nextProperties: (value: JSONValue, line: Int)?
    private var haveEnough: Bool?
    private var width: Int?
    private var height: Int?
    private var sentSize: (Int, Int)?

    /// - Parameter players: how many players the log holds (`countPlayers`), one tracker each.
    package init(
        _ input: ByteInput, players trackers: Int = 1,
        warn: @escaping (String) -> Void = PlayerLogWarnings.standardError
    ) throws(TimelineError) {
        try self.init(input, players: trackers, counting: false, warn: warn)
    }

    private init(
        _ input: ByteInput, players trackers: Int, counting: Bool, warn: @escaping (String) -> Void
    ) throws(TimelineError) {
        name = input.name
        self.counting = counting
        warnings = PlayerLogWarnings(file: input.name, warn: warn)
        if try Self.isJSON(input.peek(1 << 16)) {
            scanner = ChromeLogScanner(input)
            // Only what `process` reads of a value is built.
            scanner!.reducesValues = true
        } else {
            lines = LineReader(input)
        }
        var settings = TimelineSettings()
        settings.trackers = PlayerLogTrackers.specs(trackers, kind: .html5)
        self.settings = settings
        while queue.isEmpty, !atEnd { try readMore() }
        if entries == 0 {
            throw TimelineError(
                file: input.name,
                message:
                    "no Chrome media-internals entries: expected the saved log ([{\"properties\": …, \"events\": [{\"time\": 0, \"key\": \"event\", \"value\": \"kPlay\"}]}]) or its table (00:00:01.250 | event | kPlay)"
            )
        }
    }

    /// The saved JSON, whole or cut anywhere (a paste may begin inside an entry's list, or with
    /// prose before it), rather than the table: the table wins when a row of it is there.
    private static func isJSON(_ head: [UInt8]) -> Bool {
        let first = head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") { return true }
        if head.split(separator: 0x0A).prefix(2000).contains(where: { ChromeTableRow.parse(Array($0)) != nil }) {
            return false
        }
        return PlayerLogSniffer.hasEntry(head[...])
    }

    /// The players in a log (a second opening of the file): a first pass, warnings discarded.
    /// Whether a player has a step does not depend on the order of its entries (a step comes
    /// from any load, play, end, buffering state, seek, error, duration, size or URL entry),
    /// so this pass reads them unsorted and stops parsing a player's entries at its first step.
    package static func countPlayers(_ input: ByteInput) throws(TimelineError) -> Int {
        var reader = try ChromeMediaLogReader(input, players: 1, counting: true, warn: { _ in })
        while try reader.nextStep() != nil {}
        return reader.players
    }

    package mutating func nextStep() throws(TimelineError) -> Step? {
        while queue.isEmpty, !atEnd { try readMore() }
        return queue.pop()
    }

    // MARK: Reading

    private mutating func readMore() throws(TimelineError) {
        if scanner != nil {
            if counting { scanner!.skipsEntries = playerHasSteps }
            let item = try scanner!.next()
            let cut = scanner!.endedInside
            switch item {
            case .player?:
                newPlayer()
                (playerProperties, nextProperties) = (nextProperties, nil)
            case .properties(let value, let line)?:
                nextProperties = (value, line)
            case .entry(let time, let key, let value, let line)?:
                add(time: time, key: key, value: value, line: line)
            case nil:
                if scanner!.startedInside, entries > 0 {
                    warnings.summary(
                        "the log begins mid-JSON (a paste from its middle): read from its first whole entry")
                }
                if cut, entries > 0 { warnings.summary("the log is cut mid-JSON: read up to its last whole entry") }
                try finish()
            }
        } else {
            let row: (ChromeTableRow?, Int, String)?? = try lines!.nextLine { (bytes, number) in
                let array = Array(bytes)
                return (ChromeTableRow.parse(array), number, String(decoding: array, as: UTF8.self))
            }
            guard let (parsed, number, text) = row ?? nil else {
                try finish()
                return
            }
            if let parsed {
                add(time: Double(parsed.time), key: ChromeEntryKey(parsed.key), value: parsed.value, line: number)
            } else if Self.isTableDecoration(text) {
                return
            } else {
                skippedRows += 1
                if entries > 0 { warnings.line(number, text, "not a log row (TIME | key | value), skipped") }
            }
        }
    }

    /// Blank lines, the markdown separator (`-- | -- | --`) and the header row.
    private static func isTableDecoration(_ text: String) -> Bool {
        let trimmed = Substring(text).trimmingBlanks()
        return trimmed.isEmpty || trimmed.allSatisfy { "-|: \t".contains($0) }
            || trimmed.lowercased().hasPrefix("timestamp") || trimmed.lowercased().hasPrefix("| timestamp")
    }

    private mutating func add(time: Double, key: ChromeEntryKey, value: JSONValue, line: Int) {
        entries += 1
        playerHasEntries = true
        guard time.isFinite, time >= 0, time < Double(FieldReader.maxMilliseconds) else {
            warnings.entry("line \(line): an entry with time \(time), skipped")
            return
        }
        let entry = Entry(time: Int(time.rounded()), key: key, value: value, line: line)
        // Stable: after every entry of the same time. Entries mostly come in order, so the search
        // from the end stops at once; the window's front advances by `windowHead`, compacted
        // now and then, so taking the earliest entry moves nothing.
        var index = window.count
        while index > windowHead, window[index - 1].time > entry.time { index -= 1 }
        window.insert(entry, at: index)
        if window.count - windowHead > (counting ? 0 : Self.reorderWindow) {
            let earliest = window[windowHead]
            windowHead += 1
            if windowHead >= Self.reorderWindow {
                window.removeFirst(windowHead)
                windowHead = 0
            }
            apply(earliest)
        }
    }

    private mutating func flushWindow() {
        for entry in window[windowHead...] { apply(entry) }
        window.removeAll(keepingCapacity: true)
        windowHead = 0
    }

    private mutating func newPlayer() {
        flushWindow()
        if !held.isEmpty { resolveDoubt(.midSession) }
        applyFinalError()
        if playerHasSteps {
            var stop = Step(t: lastT, tracker: tracker, origin: StepOrigin(index: queue.nextIndex))
            stop.action = .stop
            queue.push(stop)
            playerIndex += 1
            tracker = min(playerIndex, settings.trackers.count - 1)
        } else if playerHasEntries {
            playersWithoutMedia += 1
        }
        offset = lastT
        playerTime = 0
        playerHasSteps = false
        playerHasEntries = false
        startInDoubt = nil
        markNext = false
        held.removeAll()
        loaded = false
        loadedData = false
        playRequested = false
        paused = true
        playing = false
        seeking = false
        ended = false
        errored = false
        haveEnough = nil
        width = nil
        height = nil
        sentSize = nil
    }

    private mutating func finish() throws(TimelineError) {
        flushWindow()
        if !held.isEmpty { resolveDoubt(.midSession) }
        applyFinalError()
        endAtLastEntry()
        if !playerHasSteps, playerHasEntries { playersWithoutMedia += 1 }
        atEnd = true
        warnings.finish()
        guard entries > 0 else { return }
        if playersWithoutMedia > 0 {
            // Players the page created that never loaded media (an ad slot, a muted preview):
            // nothing to replay, but said, so a log of only those is not a silent success.
            let count = playersWithoutMedia == 1 ? "1 player" : "\(playersWithoutMedia) players"
            guard players > 0 else {
                throw TimelineError(
                    file: name,
                    message: "\(count) without media (no load, play, state or size entry): nothing to replay")
            }
            warnings.summary("\(count) without media (no load, play, state or size entry), not replayed")
        }
        if skippedRows > 0 { warnings.summary("skipped \(skippedRows) lines that are not log rows") }
        if !unmapped.isEmpty {
            warnings.summary("not replayed (the html5 tracker has no observation for them): \(unmapped.text)")
        }
    }

    // MARK: Mapping

    /// A player's properties hold each key's last value: an `error` or `pipeline_error` that no
    /// entry of the log said (a startup failure or decode error Chrome shows only in the panel,
    /// or the error entry was cut from the paste) fails the player at its last entry, as the
    /// entry would have.
    private mutating func applyFinalError() {
        guard !errored, let properties = playerProperties, case .object(let members) = properties.value,
            let error = members.first(where: {
                ["error", "pipeline_error"].contains($0.key) && Self.isError($0.node.value)
            })
        else { return }
        process(
            Entry(time: playerTime, key: ChromeEntryKey(error.key), value: error.node.value, line: properties.line))
    }

    /// An error value that says something (not `null`, `""` or `PIPELINE_OK`).
    private static func isError(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .string(let text): return !text.isEmpty && text != "PIPELINE_OK"
        default: return true
        }
    }

    /// One entry, in time order. While a player's start is in doubt (its first entry is past
    /// 0 ms), entries that do not tell what it was doing (duration, size, HAVE_ENOUGH before a
    /// play request) are held until one does, so that the decision is not made by whichever
    /// entry happened to come first (Chrome logs `duration` with every live segment).
    private mutating func apply(_ entry: Entry) {
        if startInDoubt == nil { startInDoubt = entry.time > 0 }
        guard startInDoubt == true else { return process(entry) }
        switch Self.firstSign(entry) {
        case .none:
            held.append(entry)
            if held.count >= Self.heldLimit { resolveDoubt(.midSession) }
        case let sign?:
            resolveDoubt(sign, at: entry)
            process(entry)
        }
    }

    /// What an entry says about a player whose log may have begun after it did.
    private enum FirstSign {
        /// Its load, play request, creation or URL: only the creation was cut, the start is here.
        case start
        /// A PAUSE, stall or ENDED: it was playing.
        case wasPlaying
        /// A seek or an error: under way, doing something else.
        case midSession
    }

    /// Entries held at most while a start is in doubt; past them it is decided as mid-session.
    static let heldLimit = 256

    private static func firstSign(_ entry: Entry) -> FirstSign? {
        switch entry.key {
        case .event:
            switch eventName(text(entry.value)) {
            case "LOAD", "PLAY", "WEBMEDIAPLAYERCREATED": return .start
            case "PAUSE", "ENDED": return .wasPlaying
            default: return nil
            }
        case .url: return .start
        case .pipelineBufferingState:
            return bufferingState(entry.value) == "BUFFERING_HAVE_NOTHING" ? .wasPlaying : nil
        case .seekTarget, .error, .pipelineError: return .midSession
        default: return nil
        }
    }

    /// Decides a start in doubt and replays the held entries after the decision. A player that
    /// was playing plays from the log's first entry: loaded, asked to play and playing there,
    /// its first step marked `midSession` (its startup is not in the log).
    private mutating func resolveDoubt(_ sign: FirstSign, at decisive: Entry? = nil) {
        startInDoubt = false
        let entries = held
        held.removeAll()
        guard let first = entries.first ?? decisive else { return }
        if sign != .start {
            markNext = true
            warnings.entry(
                "line \(first.line): the log starts \(first.time) ms into player \(playerIndex + 1)"
                    + (sign == .wasPlaying ? ", which was playing" : "") + "; its startup is not in the log")
        }
        if sign == .wasPlaying {
            playerTime = max(playerTime, first.time)
            let t = min(offset + playerTime, FieldReader.maxMilliseconds)
            lastT = max(lastT, t)
            load(t: t, line: first.line)
            playRequested = true
            paused = false
            append(t: t, line: first.line, [Observation(.event, .string("play"))])
            startPlaying(t: t, line: first.line)
            haveEnough = true
        } else if sign == .midSession, entries.isEmpty == false {
            // Nothing of the held entries starts anything: the mark goes on the load.
            playerTime = max(playerTime, first.time)
            load(t: min(offset + playerTime, FieldReader.maxMilliseconds), line: first.line)
        }
        for entry in entries { process(entry) }
    }

    /// One entry, in time order, onto html5 observations (docs/player-logs.md has the table).
    private mutating func process(_ entry: Entry) {
        if entry.time < playerTime {
            warnings.entry(
                "line \(entry.line): \(entry.key.text) at \(entry.time) ms is more than \(Self.reorderWindow) entries out of time order, read at \(playerTime) ms"
            )
        }
        playerTime = max(playerTime, entry.time)
        let t = min(offset + playerTime, FieldReader.maxMilliseconds)
        lastT = max(lastT, t)
        let line = entry.line
        switch entry.key {
        case .event:
            guard case .string(let name) = entry.value else { return }
            playerEvent(Self.eventName(name), t: t, line: line)
        case .pipelineBufferingState:
            guard let state = Self.bufferingState(entry.value) else { return }
            buffering(state == "BUFFERING_HAVE_ENOUGH", t: t, line: line)
        case .audioBufferingState, .videoBufferingState:
            unmapped.add("renderer buffering states")
        case .seekTarget:
            guard let target = usableNumber(entry, scale: 1000), target >= 0 else { return }
            seek(to: target, t: t, line: line)
        case .error, .pipelineError:
            guard !errored else {
                unmapped.add("repeated error entries")
                return
            }
            errored = true
            playing = false
            let message = Self.text(entry.value)
            load(t: t, line: line)
            append(
                t: t, line: line,
                [
                    Observation(
                        .error,
                        Self.object(
                            [("code", .int(Self.mediaErrorCode(message))), ("message", .string(message))], line: line)
                    ),
                    Observation(.event, .string("error")),
                ])
        case .duration:
            guard let seconds = usableNumber(entry, scale: 1000), seconds >= 0 else { return }
            append(t: t, line: line, [Observation(.duration, .double(seconds))])
        case .width, .height:
            guard let value = usableNumber(entry), value >= 0, value < 1e9 else { return }
            if entry.key == .width { width = Int(value) } else { height = Int(value) }
            if let width, let height, sentSize.map({ $0 != (width, height) }) ?? true {
                sentSize = (width, height)
                append(
                    t: t, line: line,
                    [Observation(.videoWidth, .int(width)), Observation(.videoHeight, .int(height))])
            }
        case .url:
            guard case .string(let url) = entry.value else { return }
            append(t: t, line: line, [Observation(.currentSrc, .string(url))])
        case .pipelineState:
            // kSeeking → kPlaying: the pipeline finished the seek (it runs while paused too, so
            // kPlaying alone is no sign of playback). Each seek ends here, so seeks a few ms
            // apart are as many seeks.
            guard seeking, case .string(let state) = entry.value, state == "kPlaying"
            else { return }
            seeking = false
            append(t: t, line: line, [Observation(.event, .string("seeked"))])
            if playRequested, !paused, haveEnough != false { startPlaying(t: t, line: line) }
        case .other:
            break  // Context: decoders, info, debug, frame URLs…
        }
    }

    private mutating func playerEvent(_ name: String, t: Int, line: Int) {
        if name != "PAUSE" { ended = false }
        switch name {
        case "LOAD":
            load(t: t, line: line)
        case "PLAY":
            load(t: t, line: line)
            playRequested = true
            paused = false
            append(t: t, line: line, [Observation(.event, .string("play"))])
            if haveEnough == true, !seeking { startPlaying(t: t, line: line) }
        case "PAUSE":
            if ended {
                // Chrome pauses the element itself when it ends: not the user's pause.
                unmapped.add("automatic PAUSE after ENDED")
                ended = false
                return
            }
            guard !paused else { return }
            paused = true
            playing = false
            append(t: t, line: line, [Observation(.event, .string("pause"))])
        case "SEEK":
            // kSeek and seek_target come together; the target says where.
            break
        case "ENDED":
            ended = true
            playing = false
            paused = true
            append(t: t, line: line, [Observation(.event, .string("ended"))])
        case "SUSPENDED", "RESUMED":
            unmapped.add("suspend and resume")
        default:
            break  // Created, destroyed, frame URL…
        }
    }

    private mutating func buffering(_ enough: Bool, t: Int, line: Int) {
        // Repeated states (five HAVE_ENOUGH in a row) change nothing: transitions only.
        guard enough != haveEnough else { return }
        haveEnough = enough
        load(t: t, line: line)
        if enough {
            if seeking {
                seeking = false
                append(t: t, line: line, [Observation(.event, .string("seeked"))])
                if playRequested, !paused { startPlaying(t: t, line: line) }
            } else if playRequested, !paused {
                startPlaying(t: t, line: line)
            } else if !loadedData {
                loadedData = true
                append(t: t, line: line, [Observation(.event, .string("loadeddata"))])
            }
        } else if playing, !seeking {
            playing = false
            append(t: t, line: line, [Observation(.event, .string("waiting"))])
        }
    }

    private mutating func seek(to seconds: Double, t: Int, line: Int) {
        load(t: t, line: line)
        if seeking {
            append(t: t, line: line, [Observation(.currentTime, .double(seconds))])
            return
        }
        seeking = true
        playing = false
        haveEnough = nil
        append(
            t: t, line: line, [Observation(.currentTime, .double(seconds)), Observation(.event, .string("seeking"))])
    }

    private mutating func startPlaying(t: Int, line: Int) {
        guard !playing else { return }
        playing = true
        loadedData = true
        append(t: t, line: line, [Observation(.event, .string("playing"))])
    }

    /// The element starts loading at the first sign of media: kLoad, or before any state.
    private mutating func load(t: Int, line: Int) {
        guard !loaded else { return }
        loaded = true
        append(t: t, line: line, [Observation(.event, .string("loadstart"))])
    }

    /// The log's knowledge of the last player ends at its last whole entry, not at its last
    /// step: a step of nothing there keeps the time after the last state (playing, stalled) in
    /// the replay. (A player followed by another ends with its `Stop` at that time already.)
    private mutating func endAtLastEntry() {
        guard playerHasSteps, lastT > lastStepT else { return }
        queue.push(Step(t: lastT, tracker: tracker, origin: StepOrigin(index: queue.nextIndex)))
        lastStepT = lastT
    }

    // MARK: Steps

    private mutating func append(t: Int, line: Int, _ observe: [Observation]) {
        if !playerHasSteps, playerIndex >= settings.trackers.count, !sharedWarned {
            // Said when a player past the counted ones has a step, not at its first entry: a
            // player without media at the end of the log takes no tracker.
            sharedWarned = true
            warnings.summary(PlayerLogTrackers.sharedWarning(trackers: settings.trackers.count))
        }
        playerHasSteps = true
        lastStepT = max(lastStepT, t)
        var observe = observe
        if markNext {
            markNext = false
            observe.insert(Observation(.midSession, .bool(true)), at: 0)
        }
        queue.push(
            Step(
                t: t, tracker: tracker, observe: observe,
                origin: StepOrigin(index: queue.nextIndex, location: SourceLocation(line: line, column: 1))))
    }

    // MARK: Values

    /// Both naming eras to one: `kPlay` and `PLAY` are `PLAY`, `kWebMediaPlayerCreated` and
    /// `WEBMEDIAPLAYER_CREATED` are `WEBMEDIAPLAYERCREATED`.
    static func eventName(_ name: String) -> String {
        var text = Substring(name)
        if text.count > 1, text.first == "k", let second = text.dropFirst().first, second.isUppercase {
            text = text.dropFirst()
        }
        return text.filter { $0 != "_" }.uppercased()
    }

    /// `"BUFFERING_HAVE_ENOUGH"` (older Chrome) or `{"state": "BUFFERING_HAVE_ENOUGH", …}`.
    static func bufferingState(_ value: JSONValue) -> String? {
        switch value {
        case .string(let state): return state
        case .object(let members):
            if case .string(let state)? = members.first(where: { $0.key == "state" })?.node.value { return state }
            return nil
        default: return nil
        }
    }

    /// The entry's number, when a field can hold it: one whose value times `scale` (seconds to
    /// ms) is past 2^53 − 1, or `nan` or `inf`, read as it is made wrong KPIs or no replay. Such
    /// an entry is warned about and skipped, and the log read on, as the access-log reader does.
    private mutating func usableNumber(_ entry: Entry, scale: Double = 1) -> Double? {
        guard let value = Self.number(entry.value) else { return nil }
        guard value.isFinite, (value * scale).magnitude <= Double(JSONValue.maxExactInteger) else {
            let why = value.isFinite ? " (past 2^53 − 1\(scale == 1 ? "" : " ms"))" : ""
            warnings.entry(
                "line \(entry.line): \(entry.key.text) \"\(Self.text(entry.value))\" is no usable number\(why), skipped"
            )
            return nil
        }
        return value
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let n): return Double(n)
        case .double(let d): return d
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .object(let members):
            // Newer Chrome: `{"code": …, "message": "…"}`.
            if case .string(let message)? = members.first(where: { $0.key == "message" })?.node.value {
                return message
            }
            var writer = JSONWriter(capacity: 64)
            writer.value(value)
            return String(decoding: writer.bytes, as: UTF8.self)
        case .int(let n): return String(n)
        default:
            var writer = JSONWriter(capacity: 64)
            writer.value(value)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }

    /// The MediaError code a pipeline error amounts to: 1 aborted, 2 network, 3 decode, 4 source
    /// not supported (demuxer and everything else).
    static func mediaErrorCode(_ message: String) -> Int {
        let upper = message.uppercased()
        if upper.contains("ABORT") { return 1 }
        if upper.contains("NETWORK") || upper.contains("READ") { return 2 }
        if upper.contains("DECODE") { return 3 }
        return 4
    }

    static func object(_ members: [(String, JSONValue)], line: Int) -> JSONValue {
        .object(members.map { JSONMember(key: $0.0, node: JSONNode($0.1, at: SourceLocation(line: line, column: 1))) })
    }
}
