import XCTest

@testable import AVTReplay

/// The fixes a mistyped command line gets, without the binary.
final class ArgumentMistakeTests: XCTestCase {
    private let options = CommandLineOptions([
        .init(names: ["-o", "--output"], takesValue: true),
        .init(names: ["--format"], takesValue: true, values: ["jsonl", "csv", "table"]),
        .init(names: ["--worst"], takesValue: true),
        .init(names: ["--metrics-only"], takesValue: false),
        .init(names: ["-h", "--help"], takesValue: false),
        .init(names: ["--secret"], takesValue: false, shown: false),
    ])

    func testSuggestionsPreferAbbreviationsThenSmallEdits() {
        XCTAssertEqual(NameSuggestion.candidates(for: "out", among: ["worst", "output"]), ["output"])
        XCTAssertEqual(NameSuggestion.candidates(for: "hlep", among: ["help", "hub"]), ["help"])
        XCTAssertEqual(NameSuggestion.candidates(for: "replay", among: ["report", "run"]), [])
        XCTAssertEqual(NameSuggestion.candidates(for: "foo", among: ["kpi", "run", "diff"]), [])
        XCTAssertEqual(NameSuggestion.editDistance(Array("outptu"), Array("output")), 1)
    }

    func testMistakes() {
        XCTAssertEqual(
            ArgumentMistake.find(in: ["a.json", "--out", "x"], options: options),
            "Unknown option '--out'. Did you mean '-o/--output'?")
        XCTAssertEqual(
            ArgumentMistake.find(in: ["-output", "x"], options: options),
            "Unknown option '-output': long options take two dashes; use '--output'.")
        XCTAssertEqual(
            ArgumentMistake.find(in: ["--format=json"], options: options),
            "The value 'json' is invalid for '--format'. Did you mean 'jsonl'? Valid values: jsonl, csv, table.")
        XCTAssertEqual(ArgumentMistake.find(in: ["--secre"], options: options), "Unknown option '--secre'.")
    }

    func testWhatIsValidIsLeftAlone() {
        XCTAssertNil(ArgumentMistake.find(in: ["-o", "-", "--format", "csv", "-", "--secret"], options: options))
        XCTAssertNil(ArgumentMistake.find(in: ["--worst", "-3", "--", "--anything"], options: options))
        XCTAssertNil(ArgumentMistake.find(in: ["-h"], options: options))
    }
}
