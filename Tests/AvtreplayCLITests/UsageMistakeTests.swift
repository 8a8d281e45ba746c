import XCTest

/// A newcomer's mistakes each get one message that names the fix, and exit 2.
final class UsageMistakeTests: XCTestCase {
    private func refused(_ arguments: [String], in directory: URL = CLI.packageRoot) throws -> String {
        let result = try CLI.run(arguments, in: directory)
        XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
        XCTAssertEqual(result.stdout, "", "\(arguments)")
        return result.stderr
    }

    func testANearMissSubcommandIsNamedAndAnUnknownOneListsThem() throws {
        let runn = try refused(["runn", "fixtures/happy-path.json"])
        XCTAssertTrue(runn.contains("Unknown subcommand 'runn'. Did you mean 'run'?"), runn)
        XCTAssertFalse(runn.contains("unexpected arguments"), runn)
        for (typed, meant) in [("chek", "check"), ("reprot", "report"), ("kpis", "kpi"), ("convet", "convert")] {
            let message = try refused([typed, "x"])
            XCTAssertTrue(message.contains("Did you mean '\(meant)'?"), message)
        }
        let unknown = try refused(["replay", "fixtures/happy-path.json"])
        XCTAssertTrue(
            unknown.contains("The subcommands are: run, convert, check, diff, kpi, send, precall, report."), unknown)
    }

    func testAnAbbreviatedOptionSuggestsTheOptionItAbbreviates() throws {
        for command in [["report", "fixtures/happy-path.json"], ["kpi", "fixtures/happy-path.json"], ["run", "x"]] {
            let message = try refused(command + ["--out", "r.html"])
            XCTAssertTrue(message.contains("Unknown option '--out'. Did you mean '-o/--output'?"), message)
        }
        let several = try refused(["run", "fixtures/happy-path.json", "--delivery", "3"])
        XCTAssertTrue(several.contains("Did you mean one of '--delivery-batch'"), several)
    }

    func testALongOptionWithOneDashSaysToUseTwo() throws {
        let message = try refused(["run", "fixtures/happy-path.json", "-output", "x.jsonl"])
        XCTAssertTrue(
            message.contains("Unknown option '-output': long options take two dashes; use '--output'."), message)
        XCTAssertFalse(message.contains("'-u'"), message)
        let near = try refused(["kpi", "fixtures/happy-path.json", "-definition", "mux"])
        XCTAssertTrue(near.contains("use '--definitions'"), near)
    }

    func testAnInvalidValueGetsTheNearestValidOneAndTheList() throws {
        let message = try refused(["run", "fixtures/happy-path.json", "--format", "json"])
        XCTAssertTrue(
            message.contains(
                "The value 'json' is invalid for '--format'. Did you mean 'jsonl'? Valid values: jsonl, csv, table, "
                    + "influx, graphite, mediastream, openmetrics."), message)
        let kpi = try refused(["kpi", "fixtures/happy-path.json", "--definitions=mx"])
        XCTAssertTrue(kpi.contains("Did you mean 'mux'? Valid values: openavt, mux, exoplayer, cta, shaka."), kpi)
    }

    func testAMistypedHelpIsSuggestedBeforeAMissingArgument() throws {
        let message = try refused(["run", "--hlep"])
        XCTAssertTrue(message.contains("Unknown option '--hlep'. Did you mean '-h/--help'?"), message)
        XCTAssertFalse(message.contains("Missing expected argument"), message)
        let root = try refused(["--hlep"])
        XCTAssertTrue(root.contains("Did you mean '-h/--help'?"), root)
    }

    func testAValidCommandLineIsNotSecondGuessed() throws {
        // Usage errors the advice has nothing to add to keep the parser's message.
        let missing = try refused(["run", "fixtures/happy-path.json", "-o"])
        XCTAssertTrue(missing.contains("Missing value for '-o <file>'"), missing)
        XCTAssertEqual(try CLI.run(["run", "fixtures/happy-path.json", "--until", "5000", "-o", "-"]).status, 0)
    }

    func testCheckWithoutAGoldenFileNamesUpdateAndExpect() throws {
        let dir = try CLI.fixtureDirectory(["happy-path"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["check", "happy-path.json"], in: dir)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stdout.contains(
                "happy-path.expected.jsonl: no golden file: write it with `avtreplay check happy-path.json --update`, "
                    + "or give one with --expect"), result.stdout)
        let expect = try CLI.run(["check", "happy-path.json", "--expect", "golden.jsonl"], in: dir)
        XCTAssertTrue(
            expect.stdout.contains("`avtreplay check happy-path.json --expect golden.jsonl --update`"), expect.stdout)
    }

    /// An event log (what `run` writes) where a timeline goes: each command says what to do.
    func testAnEventLogGivenAsATimelineGetsEachCommandsFix() throws {
        let dir = try CLI.fixtureDirectory(["happy-path"])
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertEqual(try CLI.run(["run", "happy-path.json", "-o", "expected.jsonl"], in: dir).status, 0)
        let named = "expected.jsonl: an event log (records as `avtreplay run` writes them), not a timeline"
        let fixes = [
            ["kpi", "expected.jsonl"]: "kpi reads records with --from-events",
            ["report", "expected.jsonl", "--input-format", "jsonl"]: "or with --from-events",
            ["run", "expected.jsonl"]: "give it the timeline the records came from",
            ["convert", "expected.jsonl", "x.csv"]: "give it the timeline the records came from",
            ["precall", "expected.jsonl"]: "give it the timeline the records came from",
        ]
        for (arguments, fix) in fixes {
            let message = try refused(arguments, in: dir)
            XCTAssertTrue(message.contains(named) && message.contains(fix), message)
            XCTAssertFalse(message.contains("unknown key"), message)
        }
        let swapped = try CLI.run(["check", "expected.jsonl", "--expect", "happy-path.json"], in: dir)
        XCTAssertEqual(swapped.status, 2)
        XCTAssertTrue(
            swapped.stdout.contains(
                "the arguments look swapped; `avtreplay check happy-path.json --expect expected.jsonl`"), swapped.stdout
        )
        let alone = try CLI.run(["check", "expected.jsonl"], in: dir)
        XCTAssertTrue(alone.stdout.contains(named) && alone.stdout.contains("--expect expected.jsonl"), alone.stdout)
        // What report reads by itself stays read: an event log is its input too.
        XCTAssertEqual(try CLI.run(["report", "expected.jsonl", "-o", "r.html"], in: dir).status, 0)
    }

    /// A default the help text states is not printed again by the parser.
    func testEveryDefaultShowsOnceInTheHelp() throws {
        for command in ["run", "convert", "check", "diff", "kpi", "send", "precall", "report"] {
            let help = try CLI.run([command, "--help"]).stdout
            // One entry per option: its lines up to the next one, unwrapped.
            let entries = help.components(separatedBy: "\n  -").map {
                $0.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
            for entry in entries {
                XCTAssertLessThanOrEqual(entry.components(separatedBy: "(default").count - 1, 1, "\(command): \(entry)")
            }
        }
        let run = try CLI.run(["run", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(run.contains("Longest line of a JSONL or CSV input. (default: 16 MiB)"), run)
        XCTAssertTrue(run.contains("(default: 366 days)"), run)
    }
}
