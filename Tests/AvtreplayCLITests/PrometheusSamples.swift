import Foundation
import XCTest

/// Samples as the Prometheus tests compare them: what `--format openmetrics` printed against
/// what a server or `promtool tsdb dump` gives back.
struct PrometheusSample: Hashable, CustomStringConvertible {
    /// `__name__` included.
    var labels: [String: String]
    var value: Double
    var milliseconds: Int

    var description: String {
        let text = labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        return "{\(text)} \(value) @\(milliseconds)"
    }

    /// The sample lines of an OpenMetrics text (metadata and `# EOF` skipped).
    static func parseOpenMetrics(_ text: String) throws -> [PrometheusSample] {
        try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            var scanner = LabelScanner(Substring(line))
            let name = scanner.name()
            var labels = scanner.labels(separator: ",")
            labels["__name__"] = name
            let rest = scanner.rest.split(separator: " ")
            guard rest.count == 2, let value = Double(rest[0]) else { throw Bad(line: String(line)) }
            // Seconds with three decimals, read digit by digit.
            let stamp = rest[1].replacingOccurrences(of: ".", with: "")
            guard rest[1].split(separator: ".").last?.count == 3, let ms = Int(stamp) else {
                throw Bad(line: String(line))
            }
            return PrometheusSample(labels: labels, value: value, milliseconds: ms)
        }
    }

    /// `promtool tsdb dump`: `{__name__="x", a="b"} value milliseconds`.
    static func parseDump(_ text: String) throws -> [PrometheusSample] {
        try text.split(separator: "\n").map { line in
            var scanner = LabelScanner(Substring(line))
            let labels = scanner.labels(separator: ", ")
            let rest = scanner.rest.split(separator: " ")
            guard rest.count == 2, let value = Double(rest[0]), let ms = Int(rest[1]) else {
                throw Bad(line: String(line))
            }
            return PrometheusSample(labels: labels, value: value, milliseconds: ms)
        }
    }

    struct Bad: Error, CustomStringConvertible {
        var line: String
        var description: String { "not a sample: \(line)" }
    }

    /// Label sets in either spelling: OpenMetrics (`a="b",c="d"`) or promtool's (`a="b", c="d"`),
    /// with `\\`, `\"` and `\n` escapes.
    private struct LabelScanner {
        var rest: Substring

        init(_ line: Substring) { rest = line }

        mutating func name() -> String {
            let end = rest.firstIndex { $0 == "{" || $0 == " " } ?? rest.endIndex
            defer { rest = rest[end...] }
            return String(rest[..<end])
        }

        mutating func labels(separator: String) -> [String: String] {
            var labels: [String: String] = [:]
            guard rest.first == "{" else {
                rest = rest.drop { $0 == " " }
                return labels
            }
            rest = rest.dropFirst()
            while let first = rest.first, first != "}" {
                let eq = rest.firstIndex(of: "=")!
                let key = String(rest[..<eq])
                rest = rest[rest.index(eq, offsetBy: 2)...]
                var value = ""
                while let c = rest.first, c != "\"" {
                    rest = rest.dropFirst()
                    if c == "\\", let next = rest.first {
                        rest = rest.dropFirst()
                        value.append(next == "n" ? "\n" : next)
                    } else {
                        value.append(c)
                    }
                }
                rest = rest.dropFirst()
                labels[key] = value
                if rest.hasPrefix(separator) { rest = rest.dropFirst(separator.count) }
            }
            rest = rest.dropFirst().drop { $0 == " " }
            return labels
        }
    }
}

/// A tool of the Prometheus or VictoriaMetrics packages, or a skip (a failure under scripts/test).
enum PrometheusTools {
    static func path(_ name: String) throws -> String {
        for directory in ["/usr/bin", "/usr/local/bin"]
        where FileManager.default.isExecutableFile(
            atPath: directory + "/" + name)
        {
            return directory + "/" + name
        }
        if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
            XCTFail("\(name) is not installed: scripts/test installs the Debian package prometheus")
        }
        throw XCTSkip("\(name) is not installed (Debian package prometheus)")
    }

    /// Runs a tool; its standard output, or a failure with its standard error.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                    + String(decoding: stderr, as: UTF8.self))
        }
        return String(decoding: stdout, as: UTF8.self)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
