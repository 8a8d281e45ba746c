import AVTJSON

/// A JSON Lines timeline: the first non-blank line is the document without `steps`; every
/// following non-blank line is one step. Read line by line, so memory stays constant.
package struct JSONLTimelineReader: TimelineSource {
    package let name: String
    package let settings: TimelineSettings
    private var lines: LineReader
    private let decoders: StepDecoders
    private var index = 0

    /// The step decoders, in a class: the line reader's closure needs them while `lines` is
    /// being read, and copying two structs of tables in and out per step showed in profiles.
    private final class StepDecoders {
        // Single-threaded, never re-entered: see `Instrument`.
        @exclusivity(unchecked) var steps: StepReader
        @exclusivity(unchecked) var scanner: JSONLStepScanner

        init(steps: StepReader, scanner: JSONLStepScanner) {
            self.steps = steps
            self.scanner = scanner
        }
    }

    package init(_ input: ByteInput) throws(TimelineError) {
        name = input.name
        lines = LineReader(input)
        let reader = FieldReader(file: input.name, limits: input.limits)
        let header: TimelineSettings? = try lines.nextNonBlankLine { (bytes, line) throws(TimelineError) in
            let root = try JSONParser.parse(bytes, firstLine: line, file: input.name)
            let members = try reader.object(
                root, path: "line \(line)", allowed: TimelineDecoder.settingKeys + ["steps"])
            if let steps = members["steps"] {
                throw reader.error(
                    at: steps, path: "line \(line)",
                    "the first line of a JSONL timeline holds the settings only; put one step per line after it")
            }
            return try TimelineDecoder.decodeSettings(members, root: root, reader: reader)
        }
        guard let header else {
            throw TimelineError(
                file: input.name,
                message: "empty timeline: expected a settings line such as {\"trackers\": [{\"name\": \"content\"}]}")
        }
        settings = header
        decoders = StepDecoders(
            steps: StepReader(trackers: header.trackers, reader: reader),
            scanner: JSONLStepScanner(trackers: header.trackers, limits: input.limits))
    }

    package mutating func nextStep() throws(TimelineError) -> Step? {
        let file = name
        let index = self.index
        let decoders = self.decoders
        // The step is moved out, never copied: a copy retains and later releases every array
        // and string in it, which showed in profiles.
        let step: Step? = try lines.nextNonBlankLine { (bytes, line) throws(TimelineError) -> Step in
            let scanned = decoders.scanner.step(bytes, line: line, index: index, previousT: decoders.steps.previousT)
            if let t = scanned?.t {
                decoders.steps.accepted(t: t)
                return scanned.unsafelyUnwrapped
            }
            return try decoders.steps.step(try JSONParser.parse(bytes, firstLine: line, file: file), index: index)
        }
        // Not `step != nil`: Step is Equatable, and that comparison copied the step to compare it.
        if case .some = step { self.index += 1 }
        return step
    }
}

extension LineReader {
    /// The next line that is not only white space.
    package mutating func nextNonBlankLine<R>(_ body: (UnsafeBufferPointer<UInt8>, Int) throws(TimelineError) -> R)
        throws(TimelineError) -> R?
    {
        while true {
            var blank = false
            let result: R?? = try nextLine { (bytes, line) throws(TimelineError) -> R? in
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                    blank = true
                    return nil
                }
                return try body(bytes, line)
            }
            guard let result else { return nil }
            if !blank { return result }
        }
    }
}
