import Foundation

/// A docs page as `DocsCommandsTests` reads it: its ```sh blocks, each with the output block
/// shown right after it, and the output blocks that follow no command.
struct DocsPage {
    /// A ```sh block: its command lines (continuations joined) and what the page says they print.
    struct ShellBlock {
        var commands: [(line: Int, text: String)] = []
        var output: OutputBlock?
    }

    /// A fenced block without a language.
    struct OutputBlock {
        /// The line of its opening fence.
        var line: Int
        var lines: [String]
    }

    /// Written on the line before an output block that is not a command's output (a layout, a
    /// file's shape): the test leaves it alone.
    static let notOutputMarker = "<!-- not output -->"

    var shellBlocks: [ShellBlock] = []
    /// Output blocks that neither follow a ```sh block nor carry the marker.
    var strayOutputs: [OutputBlock] = []
    /// Output blocks with the marker.
    var markedOutputs = 0

    init(_ text: String) {
        let lines = text.components(separatedBy: "\n")
        var index = 0
        // Whether only blank lines stand between the last ```sh block and here.
        var afterShell = false
        while index < lines.count {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("```") else {
                if !trimmed.isEmpty { afterShell = false }
                index += 1
                continue
            }
            let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
            let start = index
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            if language == "sh" {
                shellBlocks.append(ShellBlock(commands: Self.commands(body, firstLine: start + 2)))
                afterShell = true
            } else if language.isEmpty {
                // Indented blocks (in a list) keep their indentation off the lines.
                let indent = lines[start].prefix { $0 == " " }.count
                let block = OutputBlock(
                    line: start + 1,
                    lines: body.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) })
                let marked = start > 0 && lines[start - 1].trimmingCharacters(in: .whitespaces) == Self.notOutputMarker
                if marked {
                    markedOutputs += 1
                } else if afterShell {
                    shellBlocks[shellBlocks.count - 1].output = block
                } else {
                    strayOutputs.append(block)
                }
                afterShell = false
            } else {
                afterShell = false
            }
        }
    }

    /// The command lines of a ```sh block's body, with their line numbers (continuations joined,
    /// blank lines and comment lines left out).
    static func commands(_ body: [String], firstLine: Int) -> [(line: Int, text: String)] {
        var result: [(Int, String)] = []
        var pending: (Int, String)?
        for (offset, raw) in body.enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if let continued = pending {
                let joined = continued.1 + " " + trimmed
                pending = nil
                if joined.hasSuffix("\\") {
                    pending = (continued.0, String(joined.dropLast()))
                } else {
                    result.append((continued.0, joined))
                }
                continue
            }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasSuffix("\\") {
                pending = (firstLine + offset, String(trimmed.dropLast()))
            } else {
                result.append((firstLine + offset, trimmed))
            }
        }
        return result
    }
}
