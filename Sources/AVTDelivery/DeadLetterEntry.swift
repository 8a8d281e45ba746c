import AVTCore
import AVTJSON
import AVTOutput
import AVTTimeline
import Foundation

/// Lines kept in a dead-letter file, read back for `avtreplay send`.
package struct DeadLetterEntry: Sendable, Equatable {
    package var destination: String
    package var format: String
    package var reason: String
    package var line: String

    package static func read(path: String) throws(TimelineError) -> [DeadLetterEntry] {
        let input = try ByteInput(path: path)
        var lines = LineReader(input)
        var entries: [DeadLetterEntry] = []
        while let entry = try lines.nextNonBlankLine({ (bytes, number) throws(TimelineError) -> DeadLetterEntry in
            guard let node = try? JSONParser.parse(bytes, firstLine: number), case .object(let members) = node.value
            else {
                throw TimelineError(
                    file: input.name, location: SourceLocation(line: number, column: 1),
                    message: "expected a dead-letter entry object")
            }
            func field(_ name: String) -> String? {
                if case .string(let s)? = members.first(where: { $0.key == name })?.node.value { return s }
                return nil
            }
            guard let to = field("to"), let format = field("format"), let line = field("line") else {
                throw TimelineError(
                    file: input.name, location: node.location,
                    message: "expected \"to\", \"format\" and \"line\" strings")
            }
            return DeadLetterEntry(destination: to, format: format, reason: field("reason") ?? "", line: line)
        }) {
            entries.append(entry)
        }
        return entries
    }
}
