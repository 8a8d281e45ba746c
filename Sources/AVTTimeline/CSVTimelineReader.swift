import AVTCore
import AVTFormats
import AVTJSON
import AVTTrackers

/// A CSV timeline (docs/timelines.md): an optional `#avtreplay {settings}` first line, a
/// header row (`t`, `tracker`, optional `action`, then `set.<key>`, `observe.<key>` and
/// `attributes.<key>` columns), then one step per row with typed cells (`CSVField`). Read through
/// `ByteInput` in chunks, one row at a time, so memory stays constant whatever the length.
///
/// Errors are located at the field: `FILE:LINE:COLUMN: field "set.position": …`, where LINE and
/// COLUMN are where the field starts (COLUMN in UTF-8 bytes from 1, the BOM not counted, as in
/// JSON errors).
package struct CSVTimelineReader: TimelineSource {
    package let name: String
    package let settings: TimelineSettings
    /// Whether the file starts with a `#avtreplay` settings line; its trackers then win and the
    /// `trackers` argument is ignored.
    package let declaresSettings: Bool

    /// The header's forms, for messages.
    static let columnForms = "t, tracker, action, set.<key>, observe.<key> or attributes.<key>"

    private enum Column {
        case t, tracker, action
        case set(Attribute)
        case observe(String)
        case attributes(Attribute)
    }

    private var records: CSVRecordReader
    private let columns: [Column]
    private let columnNames: [String]
    private let trackerIndex: [String: Int]
    private let trackerList: String
    /// The first row, read by `init` to check that trackers are declared.
    private var pending: Step?
    private var index = 0
    private var previousT: Int?
    private let reader: FieldReader

    /// - Parameter trackers: the trackers when the file has no `#avtreplay` line (the CLI's
    ///   `--tracker NAME=KIND` flags).
    package init(_ input: ByteInput, trackers: [TrackerSpec]) throws(TimelineError) {
        try self.init(input, trackers: trackers, chunkSize: 1 << 18)
    }

    /// - Parameter chunkSize: bytes read at a time (tests use tiny chunks to cross every boundary).
    init(_ input: ByteInput, trackers: [TrackerSpec], chunkSize: Int) throws(TimelineError) {
        name = input.name
        reader = FieldReader(file: input.name, limits: input.limits)
        records = try CSVRecordReader(input, chunkSize: chunkSize)

        var settings = TimelineSettings()
        if let line = try records.settingsLine() {
            settings = try Self.decodeSettings(line, reader: reader)
            declaresSettings = true
        } else {
            var seen: Set<String> = []
            for spec in trackers where !seen.insert(spec.name).inserted {
                throw TimelineError(file: input.name, message: "tracker \"\(spec.name)\" is declared twice")
            }
            settings.trackers = trackers
            declaresSettings = false
        }
        self.settings = settings
        var index: [String: Int] = [:]
        for (i, spec) in settings.trackers.enumerated() { index[spec.name] = i }
        trackerIndex = index
        trackerList = settings.trackers.map(\.name).joined(separator: ", ")

        var hasHeader = try records.next()
        while hasHeader, records.isBlank { hasHeader = try records.next() }
        guard hasHeader else {
            throw TimelineError(
                file: input.name, location: SourceLocation(line: records.line, column: 1),
                message: "empty timeline: expected a header row such as t,tracker,action,set.position")
        }
        (columns, columnNames) = try Self.header(records, reader: reader)

        pending = try readStep()
        if settings.trackers.isEmpty {
            // With a row, its unknown tracker was reported above, with its name and place.
            throw TimelineError(file: input.name, message: "no trackers declared: \(Self.howToDeclare("NAME"))")
        }
    }

    package mutating func nextStep() throws(TimelineError) -> Step? {
        if let step = pending {
            pending = nil
            return step
        }
        return try readStep()
    }

    // MARK: Settings and header

    private static func decodeSettings(_ line: CSVRecordReader.RawLine, reader: FieldReader) throws(TimelineError)
        -> TimelineSettings
    {
        let root = try JSONParser.parse(line.bytes, firstLine: line.line, file: reader.file)
        let path = "#avtreplay"
        if case .object(let all) = root.value, let steps = all.first(where: { $0.key == "steps" }) {
            throw reader.error(
                at: steps.node, path: path,
                "the #avtreplay line holds the settings only; put the header row and one step per row after it")
        }
        let members = try reader.object(root, path: path, allowed: TimelineDecoder.settingKeys)
        return try TimelineDecoder.decodeSettings(members, root: root, reader: reader)
    }

    private static func header(_ records: CSVRecordReader, reader: FieldReader) throws(TimelineError)
        -> ([Column], [String])
    {
        var columns: [Column] = []
        var names: [String] = []
        // A set beside the ordered names: the duplicate check stays linear in the column count.
        var seen: Set<String> = []
        let rowLocation = SourceLocation(line: records.recordLine, column: 1)
        // A first row with neither a t nor a tracker column is some other file (a list of
        // variables, a password file): say so and name the file, without quoting its cells.
        let hasTimelineColumn = records.fields.contains { field in
            let text = records.text[field.range]
            return text.elementsEqual("t".utf8) || text.elementsEqual("tracker".utf8)
        }
        guard hasTimelineColumn else {
            throw TimelineError(
                file: reader.file, location: rowLocation, path: "header",
                message: "not a CSV timeline: the first row has neither a t nor a tracker column (a header row "
                    + "needs t and tracker, then any of action, set.<key>, observe.<key>, attributes.<key>)")
        }
        let limits = reader.limits
        guard records.fields.count <= limits.maxColumns else {
            throw TimelineError(
                file: reader.file, location: rowLocation, path: "header",
                message:
                    "\(records.fields.count) columns are more than the limit of \(limits.maxColumns) (--max-columns)")
        }
        for field in records.fields {
            let location = SourceLocation(line: field.line, column: field.column)
            func fail(_ message: String) -> TimelineError {
                TimelineError(file: reader.file, location: location, path: "header", message: message)
            }
            guard let name = String(validating: records.text[field.range], as: UTF8.self) else {
                throw fail("invalid UTF-8 in a column name")
            }
            guard name.utf8.count <= limits.maxNameBytes else {
                throw fail(limits.nameTooLong("column name", bytes: name.utf8.count))
            }
            func attribute(_ key: String) throws(TimelineError) -> Attribute {
                let attribute = Attribute(key)
                guard attribute.index < limits.maxKeys else { throw fail(limits.tooManyKeys) }
                return attribute
            }
            let column: Column
            if name == "t" {
                column = .t
            } else if name == "tracker" {
                column = .tracker
            } else if name == "action" {
                column = .action
            } else if let key = suffix(of: name, after: "set.") {
                column = .set(try attribute(key))
            } else if let key = suffix(of: name, after: "observe.") {
                column = .observe(key)
            } else if let key = suffix(of: name, after: "attributes.") {
                column = .attributes(try attribute(key))
            } else {
                let shown = name.isEmpty ? "an empty column name" : "unknown column \(CSVField.describe(.string(name)))"
                throw fail("\(shown): expected \(columnForms)")
            }
            guard seen.insert(name).inserted else {
                throw fail("duplicate column \(CSVField.describe(.string(name))): each column may appear once")
            }
            columns.append(column)
            names.append(name)
        }
        for required in ["t", "tracker"] where !names.contains(required) {
            throw TimelineError(
                file: reader.file, location: rowLocation, path: "header",
                message: "missing column \"\(required)\": a header row needs t and tracker, then any of action, "
                    + "set.<key>, observe.<key>, attributes.<key>")
        }
        return (columns, names)
    }

    /// `key` of `prefix` + `key`, for a non-empty key.
    private static func suffix(of name: String, after prefix: String) -> String? {
        guard name.hasPrefix(prefix), name.utf8.count > prefix.utf8.count else { return nil }
        return String(name.dropFirst(prefix.count))
    }

    static func howToDeclare(_ tracker: String) -> String {
        let kinds = TrackerKind.allCases.map(\.rawValue).joined(separator: "|")
        return "declare trackers with --tracker \(tracker)=KIND (KIND: \(kinds)) or a first line such as "
            + "#avtreplay {\"trackers\": [{\"name\": \"\(tracker == "NAME" ? "content" : tracker)\"}]}"
    }

    // MARK: Rows

    private mutating func readStep() throws(TimelineError) -> Step? {
        while try records.next() {
            if records.isBlank { continue }
            let step = try step()
            index += 1
            return step
        }
        return nil
    }

    private func location(_ field: CSVRecordReader.Field) -> SourceLocation {
        SourceLocation(line: field.line, column: field.column)
    }

    private func error(_ field: CSVRecordReader.Field, column: Int, _ message: String) -> TimelineError {
        TimelineError(file: name, location: location(field), path: "field \"\(columnNames[column])\"", message: message)
    }

    private mutating func step() throws(TimelineError) -> Step {
        let fields = records.fields
        let rowLocation = SourceLocation(line: records.recordLine, column: 1)
        guard fields.count == columns.count else {
            let place = fields.count > columns.count ? location(fields[columns.count]) : rowLocation
            throw TimelineError(
                file: name, location: place,
                message: "expected \(columns.count) fields as in the header row, found \(fields.count)")
        }
        // Typed cells; nil = empty.
        var cells = [JSONValue?](repeating: nil, count: fields.count)
        for (i, field) in fields.enumerated() {
            switch records.cell(field) {
            case .empty: break
            case .value(let value): cells[i] = value
            case .invalidUTF8: throw error(field, column: i, "invalid UTF-8")
            }
        }

        var t: Int?
        var tracker: Int?
        var action: Action?
        var tColumn = 0
        for (i, column) in columns.enumerated() {
            switch column {
            case .t:
                tColumn = i
                t = try milliseconds(cells[i], field: fields[i], column: i)
            case .tracker:
                tracker = try trackerIndex(cells[i], field: fields[i], column: i)
            case .action:
                guard let value = cells[i] else { continue }
                guard case .string(let name) = value, !name.isEmpty else {
                    throw error(
                        fields[i], column: i, "expected an action name such as Start, found \(CSVField.describe(value))"
                    )
                }
                guard name.utf8.count <= reader.limits.maxNameBytes else {
                    throw error(fields[i], column: i, reader.limits.nameTooLong("action name", bytes: name.utf8.count))
                }
                action = Action(name)
            default:
                continue
            }
        }
        guard let t, let tracker else { preconditionFailure("the header has t and tracker") }
        if let previousT, t < previousT {
            throw error(
                fields[tColumn], column: tColumn,
                "t \(t) is earlier than the previous row's t \(previousT): rows must be in non-decreasing time order")
        }

        var step = Step(t: t, tracker: tracker, action: action, origin: StepOrigin(index: index, location: rowLocation))
        let kind = settings.trackers[tracker].kind
        var hasSet = false
        var hasObserve = false
        for (i, column) in columns.enumerated() {
            guard let value = cells[i] else { continue }
            switch column {
            case .t, .tracker, .action:
                continue
            case .set(let attribute):
                hasSet = true
                step.set.append((attribute, try scalar(value, field: fields[i], column: i)))
            case .observe(let key):
                hasObserve = true
                step.observe.append(try observation(key, value, kind: kind, field: fields[i], column: i))
            case .attributes(let attribute):
                guard action != nil else {
                    throw error(fields[i], column: i, "attributes need an action in the same row")
                }
                if let scalar = try scalar(value, field: fields[i], column: i) {
                    step.attributes.append((attribute, scalar))
                }
            }
        }
        guard action != nil || hasSet || hasObserve else {
            throw TimelineError(
                file: name, location: rowLocation,
                message: "a row needs an action, a set.<key> or an observe.<key> cell")
        }
        if hasObserve, let problem = kind.trackerType.checkObservations(&step.observe) {
            let column = problem.key.flatMap { key in
                columns.firstIndex { if case .observe(key) = $0 { return true } else { return false } }
            }
            if let column { throw error(fields[column], column: column, problem.message) }
            throw TimelineError(file: name, location: rowLocation, message: problem.message)
        }
        previousT = t
        return step
    }

    private func milliseconds(_ value: JSONValue?, field: CSVRecordReader.Field, column: Int) throws(TimelineError)
        -> Int
    {
        guard let value else {
            throw error(field, column: column, "missing t: expected the step's virtual time in integer milliseconds")
        }
        guard case .int = value else {
            throw error(
                field, column: column, "expected an integer number of milliseconds, found \(CSVField.describe(value))")
        }
        return try reader.milliseconds(JSONNode(value, at: location(field)), path: "field \"\(columnNames[column])\"")
    }

    private func trackerIndex(_ value: JSONValue?, field: CSVRecordReader.Field, column: Int) throws(TimelineError)
        -> Int
    {
        guard let value else {
            throw error(
                field, column: column,
                trackerList.isEmpty
                    ? "missing tracker: \(Self.howToDeclare("NAME"))"
                    : "missing tracker: expected one of: \(trackerList)")
        }
        guard case .string(let trackerName) = value else {
            throw error(field, column: column, "expected a tracker name, found \(CSVField.describe(value))")
        }
        guard let index = trackerIndex[trackerName] else {
            let shown = CSVField.describe(value)
            // Only a short plain name goes into a suggested command line; others read NAME.
            let suggested = QuotedInput.plainName(trackerName, or: "NAME")
            if trackerList.isEmpty {
                throw error(
                    field, column: column,
                    "unknown tracker \(shown): no trackers are declared; \(Self.howToDeclare(suggested))")
            }
            if declaresSettings {
                throw error(
                    field, column: column,
                    "unknown tracker \(shown): expected one of: \(trackerList) (add it to the trackers of the #avtreplay line)"
                )
            }
            throw error(
                field, column: column,
                "unknown tracker \(shown): expected one of: \(trackerList); declare it with --tracker \(suggested)=KIND"
            )
        }
        return index
    }

    private func scalar(_ value: JSONValue, field: CSVRecordReader.Field, column: Int) throws(TimelineError)
        -> AttributeValue?
    {
        try reader.scalar(JSONNode(value, at: location(field)), path: "field \"\(columnNames[column])\"")
    }

    private func observation(
        _ key: String, _ value: JSONValue, kind: TrackerKind, field: CSVRecordReader.Field, column: Int
    )
        throws(TimelineError) -> Observation
    {
        let rules = kind.observationRules
        guard let rule = rules[key] else {
            throw error(
                field, column: column,
                rules.isEmpty
                    ? "a \(kind.rawValue) tracker takes no observations (give it a kind such as avplayer, ima, html5 or exoplayer)"
                    : "unknown observation \"\(key)\" for a \(kind.rawValue) tracker: expected one of: \(rules.keys.sorted().joined(separator: ", "))"
            )
        }
        if let problem = rule.diagnose(value) {
            var message =
                problem.path.isEmpty
                ? "expected \(rule.expected), found \(CSVField.describe(value))"
                : "\(key)\(problem.path): \(problem.message)"
            // Text that looks like JSON but is not: say why, since it was read as a plain string.
            let text = records.text[field.range]
            if case .string = value, let first = text.first, [0x7B, 0x5B, 0x22].contains(first) {
                do {
                    _ = try JSONParser.parse(Array(text))
                } catch {
                    message += " (the cell is not valid JSON: \(error.message))"
                }
            }
            throw self.error(field, column: column, message)
        }
        return Observation(key, value)
    }
}
