import AVTCore
import AVTJSON
import XCTest

@testable import AVTTimeline

/// What a JSON timeline reader made of a document: its settings, the steps it gave before
/// stopping, and the error it stopped on.
struct StreamedTimeline {
    var settings: TimelineSettings?
    var steps: [Step] = []
    var error: TimelineError?
    /// Whether the steps came from the streaming reader (not the whole-document decoder).
    var streamed = false
}

enum JSONStreaming {
    /// `text` through the streaming reader, as a file read twice, with a window of `chunk` bytes.
    static func stream(_ bytes: [UInt8], chunk: Int = 1 << 18, limits: InputLimits = InputLimits())
        -> StreamedTimeline
    {
        let input = ByteInput(bytes: bytes, name: "t.json")
        let again = ByteInput(bytes: bytes, name: "t.json")
        (input.limits, again.limits) = (limits, limits)
        var result = StreamedTimeline()
        do {
            var source = try JSONTimelineReader.open(input, again: again, chunkSize: chunk)
            result.streamed = source is JSONTimelineReader
            result.settings = source.settings
            while let step = try source.nextStep() { result.steps.append(step) }
        } catch {
            result.error = error
        }
        return result
    }

    static func stream(_ text: String, chunk: Int = 1 << 18) -> StreamedTimeline {
        stream(Array(text.utf8), chunk: chunk)
    }

    /// The whole-document decoder's answer, in the same form.
    static func whole(_ bytes: [UInt8], limits: InputLimits = InputLimits()) -> StreamedTimeline {
        var result = StreamedTimeline()
        do {
            // As the reader reads it: through a ByteInput, whose limit on the document's size applies.
            let input = ByteInput(bytes: bytes, name: "t.json")
            input.limits = limits
            let timeline = try TimelineDecoder.decode(try input.readAll(), file: "t.json", limits: limits)
            result.settings = timeline.settings
            result.steps = timeline.steps
        } catch {
            result.error = error
        }
        return result
    }

    /// Why `streamed` is not what the whole-document decoder makes of the same bytes, or nil.
    /// The one difference allowed: a step's error met before a syntax error further on (the whole
    /// document's parse reports the syntax error first, a stream the step first, as JSONL does).
    static func mismatch(_ streamed: StreamedTimeline, _ whole: StreamedTimeline) -> String? {
        guard let expected = whole.error else {
            if let error = streamed.error { return "streamed failed: \(error)" }
            if streamed.settings != whole.settings { return "settings differ" }
            if streamed.steps != whole.steps {
                let at =
                    zip(streamed.steps, whole.steps).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(streamed.steps.count, whole.steps.count)
                return "steps differ at \(at) (\(streamed.steps.count) vs \(whole.steps.count))"
            }
            return nil
        }
        guard let error = streamed.error else { return "streamed without error, expected \(expected)" }
        if error == expected { return nil }
        let isSyntax = expected.path == nil && expected.reason == nil
        if isSyntax, error.path?.hasPrefix("steps[") == true, let found = error.location {
            guard let syntax = expected.location else { return nil }
            if (found.line, found.column) < (syntax.line, syntax.column) { return nil }
        }
        return "streamed \(error), expected \(expected)"
    }
}
