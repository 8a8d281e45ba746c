import AVTFormats
import AVTJSON
import AVTTimeline

/// Reads `kpi --format partial` files back for `kpi --merge`. They are untrusted input: every
/// line is checked whole (the header's version, definition set and figure names; each member of
/// each session, with its type and range) before anything is printed, and a bad or foreign file
/// is refused with its name, line and what was expected. Sessions come out in merge order: by
/// name (byte order, as a folder's files are listed), sessions of the same name in the order of
/// the files and their lines.
package enum KPIPartialReader {
    /// A session line's name and place.
    private struct Entry {
        let name: [UInt8]
        let file: Int
        let line: Int
    }

    /// Every session of `paths`, in merge order, to `body`; throws `TimelineError` for a bad file
    /// (before `body` is called at all).
    /// `checked` is called once every file was checked, before the first session.
    package static func forEach(
        _ paths: [String], definitions: KPIDefinitions, checked: () throws -> Void,
        _ body: (SessionKPIs) throws -> Void
    ) throws {
        var entries: [Entry] = []
        for (file, path) in paths.enumerated() {
            try lines(path) { bytes, line throws(TimelineError) in
                if line == 1 {
                    try header(bytes, file: path, definitions: definitions)
                } else {
                    let session = try session(bytes, file: path, line: line)
                    entries.append(Entry(name: Array(session.session.utf8), file: file, line: line))
                }
            }
        }
        entries.sort { a, b in
            if a.name != b.name { return a.name.lexicographicallyPrecedes(b.name) }
            return (a.file, a.line) < (b.file, b.line)
        }
        try checked()
        // Each file read again, once if its sessions are in name order (shards of a folder are),
        // from its start again for a session before the one it is at.
        var readers: [Int: (reader: LineReader, line: Int)] = [:]
        for entry in entries {
            var (reader, line) = try readers[entry.file] ?? (LineReader(ByteInput(path: paths[entry.file])), 0)
            if line >= entry.line { (reader, line) = (LineReader(try ByteInput(path: paths[entry.file])), 0) }
            var found: SessionKPIs?
            while line < entry.line {
                line += 1
                let wanted = line == entry.line
                let read = try reader.nextLine { bytes, n throws(TimelineError) -> SessionKPIs? in
                    wanted ? try session(Array(bytes), file: paths[entry.file], line: n) : nil
                }
                guard let read else {
                    throw TimelineError(file: paths[entry.file], message: "changed while it was read")
                }
                found = read ?? found
            }
            readers[entry.file] = (reader, line)
            if let found { try body(found) }
        }
    }

    /// Each line of a file and its number; a file without a line is refused.
    private static func lines(_ path: String, _ body: ([UInt8], Int) throws(TimelineError) -> Void)
        throws(TimelineError)
    {
        var reader = LineReader(try ByteInput(path: path))
        var any = false
        while try reader.nextLine({ bytes, line throws(TimelineError) in try body(Array(bytes), line) }) != nil {
            any = true
        }
        if !any { throw expected(path, line: 1, "a kpi partial file's header line; the file is empty") }
    }

    private static func expected(_ file: String, line: Int, _ what: String, at node: JSONNode? = nil)
        -> TimelineError
    {
        TimelineError(
            file: file, location: node?.location ?? SourceLocation(line: line, column: 1),
            message: "expected \(what) (a file `avtreplay kpi --format partial` writes)")
    }

    private static func parse(_ bytes: [UInt8], file: String, line: Int) throws(TimelineError) -> [JSONMember] {
        let node = try JSONParser.parse(bytes, firstLine: line, file: file)
        guard case .object(let members) = node.value else {
            throw expected(file, line: line, "a JSON object", at: node)
        }
        return members
    }

    /// The header: this version, the definition set the merge prints, these figures.
    private static func header(_ bytes: [UInt8], file: String, definitions: KPIDefinitions) throws(TimelineError) {
        let what = "a kpi partial file's header, {\"kpiPartial\": \(KPIPartialWriter.version), …}"
        guard let members = try? parse(bytes, file: file, line: 1) else { throw expected(file, line: 1, what) }
        var fields = KPIPartialFields(members, file: file, line: 1)
        guard case .int(KPIPartialWriter.version)? = fields.take("kpiPartial")?.value else {
            throw expected(file, line: 1, what)
        }
        guard case .string(let set)? = fields.take("definitions")?.value else {
            throw expected(file, line: 1, "the header's \"definitions\"")
        }
        guard set == definitions.rawValue else {
            throw TimelineError(
                file: file, location: SourceLocation(line: 1, column: 1),
                message: "written with --definitions \(set); merge it with --definitions \(set)")
        }
        let names = fields.take("figures")
        guard case .array(let nodes)? = names?.value,
            nodes.map(\.value) == PlaybackFigures.fieldNames.map(JSONValue.string)
        else {
            throw expected(file, line: 1, "the figures this version writes, in its order", at: names)
        }
        try fields.noneLeft()
    }

    /// A session line, checked whole.
    private static func session(_ bytes: [UInt8], file: String, line: Int) throws(TimelineError) -> SessionKPIs {
        var fields = KPIPartialFields(try parse(bytes, file: file, line: line), file: file, line: line)
        let name = try fields.string("session")
        let end = try fields.int("end")
        guard case .array(let nodes) = try fields.required("playbacks").value else {
            throw expected(file, line: line, "\"playbacks\" as an array")
        }
        var playbacks: [(id: String, figures: PlaybackFigures)] = []
        var histories: [PlaybackHistory] = []
        for node in nodes {
            guard case .object(let members) = node.value else {
                throw expected(file, line: line, "a playback as an object", at: node)
            }
            var playback = KPIPartialFields(members, file: file, line: line)
            let id = try playback.string("playbackId")
            let figuresNode = try playback.required("figures")
            guard case .array(let values) = figuresNode.value,
                let figures = PlaybackFigures(
                    fieldValues: values.map { $0.value == .null ? nil : KPIPartialFields.bounded($0.value) ?? -1 }),
                values.allSatisfy({ $0.value == .null || KPIPartialFields.bounded($0.value) != nil })
            else {
                throw expected(
                    file, line: line, "\"figures\": \(PlaybackFigures.fieldNames.count) whole numbers ≥ 0",
                    at: figuresNode)
            }
            let firstFrame = try playback.optionalInt("firstFrameAt")
            var entries: [PlaybackHistory.Entry] = []
            for entry in try playback.array("history") {
                var e = KPIPartialFields(try entry.objectMembers(file: file, line: line), file: file, line: line)
                let stateName = try e.string("state")
                guard let state = PlaybackState.allCases.first(where: { $0.name == stateName }) else {
                    throw expected(file, line: line, "a state docs/kpi.md names, not \"\(stateName)\"", at: entry)
                }
                entries.append(.init(state: state, t: try e.int("t"), durationMs: try e.int("durationMs")))
                try e.noneLeft()
            }
            var switches: [(t: Int, format: VideoFormat)] = []
            for change in try playback.array("switchHistory") {
                var c = KPIPartialFields(try change.objectMembers(file: file, line: line), file: file, line: line)
                let t = try c.int("t")
                let format = VideoFormat(height: try c.optionalInt("height"), bitrate: try c.optionalInt("bitrate"))
                switches.append((t, format))
                try c.noneLeft()
            }
            try playback.noneLeft()
            // In time order, within the recording: the history is replayed state by state.
            let times = entries.map(\.t) + switches.map(\.t)
            guard zip(entries, entries.dropFirst()).allSatisfy({ $0.t <= $1.t }),
                zip(switches, switches.dropFirst()).allSatisfy({ $0.t <= $1.t }),
                times.allSatisfy({ $0 <= end }),
                entries.allSatisfy({ $0.t + $0.durationMs <= JSONValue.maxExactInteger })
            else {
                throw expected(file, line: line, "playback \(id)'s history in time order, within the session's end")
            }
            playbacks.append((id, figures))
            histories.append(PlaybackHistory(id: id, entries: entries, switches: switches, firstFrame: firstFrame))
        }
        var session = SessionKPIs(session: name, end: end, playbacks: playbacks, histories: histories)
        if let avmetrics = fields.take("avmetrics") {
            guard case .object(let members) = avmetrics.value else {
                throw expected(file, line: line, "\"avmetrics\" as an object", at: avmetrics)
            }
            var a = KPIPartialFields(members, file: file, line: line)
            let table = try a.string("table")
            let json = try a.required("json")
            guard case .object = json.value, TerminalText.escapedKeepingNewlines(table) == table else {
                throw expected(file, line: line, "\"avmetrics\": a table without control characters, and JSON")
            }
            try a.noneLeft()
            session.avmetricsRendered = (table, json.value)
        }
        try fields.noneLeft()
        return session
    }
}

extension JSONNode {
    /// The members of an object; a located error otherwise.
    fileprivate func objectMembers(file: String, line: Int) throws(TimelineError) -> [JSONMember] {
        guard case .object(let members) = value else {
            throw TimelineError(file: file, location: location, message: "expected an object, got \(value.typeName)")
        }
        return members
    }
}
