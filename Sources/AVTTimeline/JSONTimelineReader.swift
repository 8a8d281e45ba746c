import AVTJSON

/// A JSON timeline document streamed: its steps are read one at a time out of the `steps` array,
/// so memory follows the largest step rather than the document (a tree of 10^6 steps took close
/// to 1 GB). Each step is cut out of the input and decoded like a JSONL line (`JSONLStepScanner`,
/// else `JSONParser` and `StepReader` on its bytes alone, at its place in the document).
///
/// The settings must be known before the first step, and their keys may come in any order,
/// before or after `steps` (`until` often follows them). The document is therefore read twice:
/// once to its end, moving over the steps, for the other members; then for the steps. Input that
/// cannot be read again (standard input, a pipe) is first read into memory as text, still far
/// smaller than its tree, and read twice from there.
///
/// Errors are the whole-document decoder's, with the same file, line, column and message. Any
/// mistake outside the steps array is left to that decoder (on the whole document, read again),
/// because it reports the first syntax error before any other and the first pass does not check
/// the steps. Mistakes in the steps array are reported where they are met, after the steps before
/// them, as a JSONL timeline reports a bad line.
package struct JSONTimelineReader: TimelineSource {
    package let name: String
    package let settings: TimelineSettings
    private var cursor: JSONDocumentCursor
    private var steps: StepReader
    private var scanner: JSONLStepScanner
    private var outline: JSONTimelineOutline
    private var index = 0
    private var state = State.first

    private enum State { case first, next, done }

    /// Opens a JSON timeline. `again`, the same file opened a second time, is read first for the
    /// settings; without it, the input is read into memory and read twice there. `chunkSize` is
    /// the window's usual size (tests make it tiny).
    package static func open(_ input: ByteInput, again: ByteInput? = nil, chunkSize: Int = 1 << 18)
        throws(TimelineError) -> any TimelineSource
    {
        let (input, again) = try twice(input, again: again)
        let reader = FieldReader(file: input.name, limits: input.limits)
        var first = JSONDocumentCursor(again, chunkSize: chunkSize)
        var outline = JSONTimelineOutline()
        // Anything amiss: the whole document tells what, as it always has.
        guard (try? outline.open(&first)) == true,
            (try? outline.readMembers(&first, first: true, stopAtSteps: false, skipSteps: true)) != nil,
            let settings = try? TimelineDecoder.decodeRoot(outline.node, reader: reader).settings
        else { return try whole(input, after: []) }
        var cursor = JSONDocumentCursor(input, chunkSize: chunkSize)
        cursor.keepsEverything = true
        outline = JSONTimelineOutline()
        // The file may have changed since: the whole document, read on, says how.
        guard (try? outline.open(&cursor)) == true,
            (try? outline.readMembers(&cursor, first: true, stopAtSteps: true, skipSteps: false)) == .steps
        else { return try whole(input, after: cursor.everythingRead) }
        cursor.keepsEverything = false
        cursor.take()  // the steps' `[`
        return JSONTimelineReader(cursor: cursor, settings: settings, outline: outline, reader: reader)
    }

    /// The input and a second reading of it: `again`, or both from the input read into memory.
    private static func twice(_ input: ByteInput, again: ByteInput?) throws(TimelineError) -> (ByteInput, ByteInput) {
        if let again { return (input, again) }
        let bytes = try input.readAll()
        let (memory, copy) = (ByteInput(bytes: bytes, name: input.name), ByteInput(bytes: bytes, name: input.name))
        (memory.limits, copy.limits) = (input.limits, input.limits)
        return (memory, copy)
    }

    /// The whole-document decoder on `prefix`, the bytes read so far, and the rest of the input.
    private static func whole(_ input: ByteInput, after prefix: [UInt8]) throws(TimelineError) -> DocumentSource {
        let timeline = try TimelineDecoder.decode(
            try input.readAll(after: prefix), file: input.name, limits: input.limits)
        return DocumentSource(timeline, name: input.name)
    }

    private init(
        cursor: JSONDocumentCursor, settings: TimelineSettings, outline: JSONTimelineOutline, reader: FieldReader
    ) {
        name = cursor.input.name
        self.settings = settings
        self.cursor = cursor
        self.outline = outline
        steps = StepReader(trackers: settings.trackers, reader: reader)
        scanner = JSONLStepScanner(trackers: settings.trackers, limits: cursor.input.limits)
    }

    /// The window's size, for tests that the reader holds a step at a time.
    var windowBytes: Int { cursor.capacity }

    package mutating func nextStep() throws(TimelineError) -> Step? {
        if InputCancellation.isRequested { throw InputCancellation.error(reading: name) }
        switch state {
        case .done:
            return nil
        case .first:
            try cursor.skipWhitespace()
            guard let next = try cursor.peek() else { throw cursor.error("unexpected end of input inside an array") }
            if next == UInt8(ascii: "]") { return try finish() }
            state = .next
        case .next:
            try cursor.skipWhitespace()
            guard let next = try cursor.peek() else { throw cursor.error("unexpected end of input inside an array") }
            if next == UInt8(ascii: "]") { return try finish() }
            guard next == UInt8(ascii: ",") else {
                throw cursor.error("expected ',' or ']' after an array element, found \(try cursor.found())")
            }
            cursor.take()
            try cursor.skipWhitespace()
            guard let start = try cursor.peek() else { throw cursor.error("unexpected end of input inside an array") }
            if start == UInt8(ascii: "]") {
                throw cursor.error(
                    "expected a JSON value, found \(try cursor.found()) (trailing commas are not allowed)")
            }
        }
        let step = try readStep()
        index += 1
        return step
    }

    /// The step that starts at the next byte: the scanner on the bytes at hand when it can, the
    /// general path on the step's own bytes otherwise.
    private mutating func readStep() throws(TimelineError) -> Step {
        let at = cursor.location
        if let step = scan(at: at, length: nil) { return step }
        let length = try cursor.bufferValue()
        // The window may have ended inside the step: the scanner has it whole now.
        if let step = scan(at: at, length: length) { return step }
        return try steps.step(try cursor.parseBuffered(length: length, depth: 2), index: index)
    }

    /// The scanner's step, when it decodes one that ends where `length` says (if given).
    private mutating func scan(at location: SourceLocation, length: Int?) -> Step? {
        let (index, previousT) = (self.index, steps.previousT)
        guard
            let scanned = cursor.withUnread(
                &scanner,
                { scanner, bytes in
                    scanner.step(
                        UnsafeBufferPointer(rebasing: bytes[0..<(length ?? bytes.count)]), at: location, index: index,
                        previousT: previousT)
                }), length == nil || scanned.count == length
        else { return nil }
        cursor.advance(by: scanned.count, line: scanned.line, lineStart: scanned.lineStart)
        steps.accepted(t: scanned.step.t)
        return scanned.step
    }

    /// After the steps' `]`: the members after them, checked as the whole-document decoder
    /// checks them (the first pass found them sound unless the file changed since).
    private mutating func finish() throws(TimelineError) -> Step? {
        cursor.take()
        state = .done
        _ = try outline.readMembers(&cursor, first: false, stopAtSteps: false, skipSteps: false)
        _ = try TimelineDecoder.decodeRoot(outline.node, reader: steps.reader)
        return nil
    }
}
