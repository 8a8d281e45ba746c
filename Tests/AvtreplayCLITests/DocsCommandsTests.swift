import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every command that README.md and docs/*.md show runs, against the built binary, exits as the
/// page says and prints what the page shows; every relative link of those pages resolves.
///
/// The convention the pages follow:
/// - Commands are the lines of ```sh blocks (a line ending in `\` continues on the next). A line is
///   run when it starts with `avtreplay `, `swift run avtreplay ` (run as the built binary, never
///   through SwiftPM), or one of the helpers `cat `, `mkdir `, `cp `, `tail `, `head `. Any other line
///   (`scripts/test`, `export …`, a server's own client) is listed as not run, with the reason.
/// - A command must exit 0, unless its comment says `# exit N`.
/// - A fenced block without a language right after a ```sh block (nothing but blank lines between)
///   shows what that block's commands print, standard output and error as a terminal shows them,
///   in order. `OutputPattern` says how it is matched (`…` for lines or text left out). A block
///   with a language (`json`, `csv`, `text`) is a file or a synopsis, never output. Any other
///   block without a language fails the test, unless the line before it is `<!-- not output -->`
///   (a layout, a catalogue of messages). A block whose commands are not all run is not compared.
/// - The commands of one page run in order, in a temporary directory of their own that holds a copy
///   of fixtures/, so a command may read what an earlier one of the same page wrote, and nothing is
///   ever written into the repository.
/// - A command that needs a network server runs only against the servers the other tests use:
///   InfluxDB 1.x with AVTREPLAY_INFLUX_URL (`influxdb://127.0.0.1:8086/DB` is pointed at it, DB at a
///   fresh database), carbon with AVTREPLAY_CARBON_PORT (`graphite://127.0.0.1:2003` is pointed at it),
///   Prometheus and VictoriaMetrics with AVTREPLAY_PROMETHEUS_URL and AVTREPLAY_VICTORIA_URL
///   (`prometheus://127.0.0.1:9090` and `prometheus://127.0.0.1:8428`).
///   Destinations on port 9, where nothing listens, need no server: they show what an outage does.
///   InfluxDB 2.x, New Relic and Mediastream collectors are never available here; commands that
///   need them are listed as not run.
final class DocsCommandsTests: XCTestCase {
    struct Command {
        var page: String
        var line: Int
        var text: String
        var expectedStatus: Int32
    }

    struct Skipped {
        var page: String
        var line: Int
        var text: String
        var reason: String
        /// Skipped only because a test server is not running here: `scripts/test` runs it.
        var needsTestServer = false
    }

    static let root = CLI.packageRoot

    static func pages() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
            .sorted()
        return [root.appendingPathComponent("README.md")] + names.map { docs.appendingPathComponent($0) }
    }

    static func relativeName(_ url: URL) -> String {
        url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) : url.path
    }

    // MARK: - Commands

    /// Splits a shell line into the command and its trailing `# comment` (a `#` after white space,
    /// outside quotes).
    static func splitComment(_ line: String) -> (command: String, comment: String) {
        var quote: Character?
        var previous: Character = " "
        for (offset, c) in line.enumerated() {
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "#", previous == " " || previous == "\t" {
                let i = line.index(line.startIndex, offsetBy: offset)
                return (
                    line[..<i].trimmingCharacters(in: .whitespaces),
                    String(line[line.index(after: i)...]).trimmingCharacters(in: .whitespaces)
                )
            }
            previous = c
        }
        return (line.trimmingCharacters(in: .whitespaces), "")
    }

    static func expectedStatus(comment: String) -> Int32 {
        guard comment.hasPrefix("exit ") else { return 0 }
        return Int32(comment.dropFirst(5).prefix { $0.isNumber }) ?? 0
    }

    static let runnablePrefixes = ["avtreplay ", "swift run avtreplay ", "cat ", "mkdir ", "cp ", "tail ", "head "]

    /// Destinations that name a server.
    static func destinations(in command: String) -> [String] {
        let schemes = [
            "influxdb://", "influxdb+https://", "influxdb2://", "influxdb2+https://", "graphite://", "graphite+udp://",
            "newrelic://", "mediastream+http://", "mediastream+https://", "prometheus://", "prometheus+https://",
        ]
        return command.split(whereSeparator: { $0 == " " || $0 == "'" || $0 == "\"" }).map(String.init).filter { word in
            schemes.contains { word.hasPrefix($0) }
        }
    }

    /// `prometheus://127.0.0.1:9090` and `prometheus://127.0.0.1:8428` (27 characters) in the
    /// pages are pointed at the Prometheus and VictoriaMetrics of the server tests.
    static let remoteWriteServers = [
        "prometheus://127.0.0.1:9090": (name: "Prometheus", variable: "AVTREPLAY_PROMETHEUS_URL"),
        "prometheus://127.0.0.1:8428": (name: "VictoriaMetrics", variable: "AVTREPLAY_VICTORIA_URL"),
    ]

    static func closedPort(_ destination: String) -> Bool {
        destination.contains(":9/") || destination.hasSuffix(":9")
    }

    func testEveryCommandTheDocsShowRuns() throws {
        let binary = try CLI.binary
        let env = ProcessInfo.processInfo.environment
        let influx = env["AVTREPLAY_INFLUX_URL"]
        let carbonPort = env["AVTREPLAY_CARBON_PORT"]
        var ran: [Command] = []
        var skipped: [Skipped] = []
        // Output blocks compared, left unchecked (a command of their block not run), and marked.
        var (compared, unchecked, marked) = (0, [String](), 0)
        let started = Date()
        for page in try Self.pages() {
            let name = Self.relativeName(page)
            let docs = DocsPage(try String(contentsOf: page, encoding: .utf8))
            for stray in docs.strayOutputs {
                XCTFail(
                    "\(name):\(stray.line): an output block follows no ```sh block: put it right after the command "
                        + "that prints it, or mark it \(DocsPage.notOutputMarker) on the line before")
            }
            marked += docs.markedOutputs
            guard docs.shellBlocks.contains(where: { !$0.commands.isEmpty }) else { continue }
            let work = try CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: work) }
            try FileManager.default.copyItem(
                at: Self.root.appendingPathComponent("fixtures"), to: work.appendingPathComponent("fixtures"))
            var database: String?
            for block in docs.shellBlocks {
                // What the block's commands print, in order, for its output block; nil once one is not run.
                var printed: String? = ""
                for (line, full) in block.commands {
                    let (command, comment) = Self.splitComment(full)
                    guard Self.runnablePrefixes.contains(where: { command.hasPrefix($0) }) else {
                        skipped.append(
                            Skipped(page: name, line: line, text: command, reason: "not an avtreplay command"))
                        printed = nil
                        continue
                    }
                    XCTAssertFalse(
                        command.contains("../") || command.contains(" /"),
                        "\(name):\(line): a docs command must stay in its working directory: \(command)")
                    var shell = command.replacingOccurrences(of: "swift run avtreplay ", with: "avtreplay ")
                    var reason: String?
                    var needsTestServer = false
                    // Test servers stand in for the page's: their addresses are the page's again in the output.
                    var pointedAt: [(server: String, page: String)] = []
                    for destination in Self.destinations(in: command) where !Self.closedPort(destination) {
                        if destination.hasPrefix("influxdb://127.0.0.1:8086/") {
                            guard let influx else {
                                reason = "needs InfluxDB 1.x: set AVTREPLAY_INFLUX_URL"
                                needsTestServer = true
                                break
                            }
                            if database == nil { database = try freshDatabase(influx) }
                            let host = influx.replacingOccurrences(of: "http://", with: "")
                            var rewritten = "influxdb://\(host)/\(database!)"
                            if let q = destination.firstIndex(of: "?") { rewritten += destination[q...] }
                            shell = shell.replacingOccurrences(of: destination, with: rewritten)
                            pointedAt.append((rewritten, destination))
                        } else if destination.hasPrefix("graphite://127.0.0.1:2003") {
                            guard let carbonPort else {
                                reason = "needs carbon-cache: set AVTREPLAY_CARBON_PORT"
                                needsTestServer = true
                                break
                            }
                            shell = shell.replacingOccurrences(
                                of: destination, with: "graphite://127.0.0.1:\(carbonPort)")
                            pointedAt += [
                                ("graphite://127.0.0.1:\(carbonPort)", "graphite://127.0.0.1:2003"),
                                ("127.0.0.1:\(carbonPort)", "127.0.0.1:2003"),
                            ]
                        } else if let server = Self.remoteWriteServers[String(destination.prefix(27))] {
                            guard let url = env[server.variable] else {
                                reason = "needs \(server.name): set \(server.variable)"
                                needsTestServer = true
                                break
                            }
                            let address = url.replacingOccurrences(of: "http://", with: "prometheus://")
                            shell = shell.replacingOccurrences(of: String(destination.prefix(27)), with: address)
                            pointedAt.append((address, String(destination.prefix(27))))
                        } else if destination.hasPrefix("influxdb2") {
                            reason = "needs an InfluxDB 2.x server and token (the contract tests use a local mock)"
                        } else if destination.hasPrefix("newrelic://") {
                            reason = "needs a New Relic account (the contract tests use a local mock)"
                        } else if destination.hasPrefix("mediastream+") {
                            reason = "needs a Mediastream collector (the CLI tests use a local mock)"
                        } else {
                            reason = "needs a server at \(destination)"
                        }
                    }
                    if let reason {
                        skipped.append(
                            Skipped(
                                page: name, line: line, text: command, reason: reason, needsTestServer: needsTestServer)
                        )
                        printed = nil
                        continue
                    }
                    let expected = Self.expectedStatus(comment: comment)
                    let result = try run(shell, in: work, binaryDirectory: binary.deletingLastPathComponent())
                    ran.append(Command(page: name, line: line, text: command, expectedStatus: expected))
                    printed? += pointedAt.reduce(result.stdout) {
                        $0.replacingOccurrences(of: $1.server, with: $1.page)
                    }
                    XCTAssertEqual(
                        result.status, expected,
                        "\(name):\(line): `\(command)` exited \(result.status), the page says \(expected)\noutput: \(result.stdout.prefix(2000))"
                    )
                }
                guard let output = block.output else { continue }
                guard let printed else {
                    unchecked.append("\(name):\(output.line)")
                    continue
                }
                compared += 1
                let pattern = OutputPattern(output.lines)
                if !pattern.matches(printed) {
                    XCTFail(
                        "\(name):\(output.line): the output block differs from what its commands print"
                            + (pattern.firstMismatch(printed).map { " (first unmatched line: \($0))" } ?? "")
                            + "\n--- printed:\n\(printed.prefix(4000))")
                }
            }
        }
        print(
            "docs commands: ran \(ran.count) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s; not run: \(skipped.count)"
        )
        for s in skipped { print("  not run: \(s.page):\(s.line): \(s.text)  — \(s.reason)") }
        print(
            "docs outputs: compared \(compared); marked not output: \(marked); not compared (a command not run): "
                + "\(unchecked.joined(separator: ", "))")
        XCTAssertGreaterThan(compared, 20, "too few output blocks compared: is the output convention still followed?")
        XCTAssertLessThan(marked, 10, "mark only what is not a command's output")
        // The pages show far more than this; a parser that finds nothing must not pass.
        XCTAssertGreaterThan(ran.count, 40, "too few docs commands found: is the ```sh convention still followed?")
        // Commands skipped only for want of a test server run under scripts/test; the others can
        // never run here (a New Relic account, a real collector), and must stay few.
        XCTAssertLessThan(
            skipped.filter { !$0.needsTestServer }.count, 20, "keep the commands the tests cannot run few")
    }

    private func run(_ command: String, in directory: URL, binaryDirectory: URL) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Standard error joins standard output, in the order a terminal would show them.
        process.arguments = ["timeout", "60", "/bin/sh", "-c", "exec 2>&1\n" + command]
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = binaryDirectory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["NO_COLOR"] = "1"
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        final class Box: @unchecked Sendable { var data = Data() }
        let stdout = Box()
        let reader = Thread { stdout.data = out.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: stdout.data, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }

    private func freshDatabase(_ base: String) throws -> String {
        let name = "docs" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
        var components = URLComponents(string: base + "/query")!
        components.queryItems = [URLQueryItem(name: "q", value: "CREATE DATABASE \(name)")]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        done.wait()
        return name
    }

    func testOutputBlocksMatchAsTheConventionSays() {
        let printed = "a 1\nb 06C45D18-8009\nc\nd\ne, and more\n"
        XCTAssertTrue(OutputPattern(["a 1", "b 06C45D18…", "…", "e…"]).matches(printed))
        XCTAssertTrue(OutputPattern(["…", "c", "d", "…"]).matches(printed))
        XCTAssertTrue(OutputPattern(["a 1", "…", "b…", "c", "d", "e, … more"]).matches(printed))
        XCTAssertFalse(OutputPattern(["a 1", "c", "…"]).matches(printed), "a line left out needs its …")
        XCTAssertFalse(OutputPattern(["a 1", "b 06C45D18…", "c"]).matches(printed), "lines after the last need …")
        XCTAssertFalse(OutputPattern(["a 2", "…"]).matches(printed))
        XCTAssertEqual(OutputPattern(["a 1", "x", "…"]).firstMismatch(printed), "x")
        let page = DocsPage(
            "```sh\navtreplay run x\n```\n\n```\nout\n```\ntext\n```\nstray\n```\n"
                + "<!-- not output -->\n```\ntree\n```\n```json\n{}\n```\n")
        XCTAssertEqual(page.shellBlocks.first?.output?.lines, ["out"])
        XCTAssertEqual(page.strayOutputs.map(\.lines), [["stray"]])
        XCTAssertEqual(page.markedOutputs, 1)
    }

    // MARK: - Links

    /// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_` kept, spaces as `-`.
    static func anchors(of text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result = Set<String>()
        var inBlock = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard !inBlock, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            var slug = ""
            for c in title.lowercased() {
                if c.isLetter || c.isNumber || c == "-" || c == "_" {
                    slug.append(c)
                } else if c == " " {
                    slug.append("-")
                }
            }
            let n = seen[slug, default: 0]
            seen[slug] = n + 1
            result.insert(n == 0 ? slug : "\(slug)-\(n)")
        }
        return result
    }

    /// Targets of Markdown links and images `](target)`, outside code blocks.
    static func links(of text: String) -> [(line: Int, target: String)] {
        var result: [(Int, String)] = []
        var inBlock = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard !inBlock else { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                result.append((index + 1, String(after[..<close])))
                rest = after[close...]
            }
        }
        return result
    }

    func testEveryDocsLinkResolvesAndEveryPageIsLinkedFromTheReadme() throws {
        let pages = try Self.pages()
        var texts: [URL: String] = [:]
        for page in pages { texts[page.standardizedFileURL] = try String(contentsOf: page, encoding: .utf8) }
        var linkedFromReadme = Set<String>()
        for page in pages {
            let name = Self.relativeName(page)
            for (line, target) in Self.links(of: texts[page.standardizedFileURL]!) {
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") {
                    continue
                }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                let file =
                    parts[0].isEmpty
                    ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: file.path),
                    "\(name):\(line): link to \(target): no such file")
                XCTAssertTrue(
                    file.path.hasPrefix(Self.root.path + "/"),
                    "\(name):\(line): link to \(target) leaves the repository")
                if page.lastPathComponent == "README.md" { linkedFromReadme.insert(file.path) }
                if parts.count == 2, file.pathExtension == "md" {
                    let text = try texts[file.standardizedFileURL] ?? String(contentsOf: file, encoding: .utf8)
                    XCTAssertTrue(
                        Self.anchors(of: text).contains(parts[1]), "\(name):\(line): link to \(target): no such heading"
                    )
                }
            }
        }
        for page in pages where page.lastPathComponent != "README.md" {
            XCTAssertTrue(
                linkedFromReadme.contains(page.standardizedFileURL.path),
                "\(Self.relativeName(page)) is not linked from README.md")
        }
        XCTAssertGreaterThan(pages.count, 8, "the reference pages live in docs/")
    }
}
