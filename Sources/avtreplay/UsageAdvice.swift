import AVTReplay
import ArgumentParser
import Foundation

/// A command line the parser refused, told again with its fix (`ArgumentMistake`): the parser's
/// own message suggests by edit distance alone (`--out` → `--worst`), reads `-output` as short
/// flags, and reports a missing argument before an option it does not know.
enum UsageAdvice {
    /// The message and usage for the first mistake in `arguments`, or nil to keep the parser's.
    static func message(for arguments: [String]) -> String? {
        guard let root = try? JSONDecoder().decode(Dump.self, from: Data(AVTReplayCommand._dumpHelp().utf8)).command
        else { return nil }
        guard let first = arguments.first else { return nil }
        if first.hasPrefix("-") {
            return ArgumentMistake.find(in: arguments, options: root.options).map { usage($0, for: nil) }
        }
        let subcommands = root.subcommands ?? []
        let names = subcommands.map(\.commandName).filter { $0 != "help" }
        if first == "help" { return nil }
        guard let command = subcommands.first(where: { $0.commandName == first }) else {
            return usage(ArgumentMistake.unknownSubcommand(first, among: names), for: nil)
        }
        return ArgumentMistake.find(in: Array(arguments.dropFirst()), options: command.options).map {
            usage($0, for: first)
        }
    }

    /// As the parser prints a usage error: the message, the usage line and where help is.
    private static func usage(_ message: String, for subcommand: String?) -> String {
        let type = AVTReplayCommand.configuration.subcommands.first { $0._commandName == subcommand }
        let synopsis = AVTReplayCommand.usageString(for: type ?? AVTReplayCommand.self)
        let name = ["avtreplay", subcommand].compactMap { $0 }.joined(separator: " ")
        return "Error: \(message)\nUsage: \(synopsis)\n  See '\(name) --help' for more information."
    }

    /// The parts of the parser's `--experimental-dump-help` description used here.
    private struct Dump: Decodable {
        var command: Command
    }

    private struct Command: Decodable {
        var commandName: String
        var arguments: [Argument]?
        var subcommands: [Command]?

        var options: CommandLineOptions {
            CommandLineOptions(
                (arguments ?? []).filter { $0.kind != "positional" }.map {
                    CommandLineOptions.Option(
                        names: ($0.names ?? []).map(\.typed), takesValue: $0.kind == "option", values: $0.allValues,
                        shown: $0.shouldDisplay)
                })
        }
    }

    private struct Argument: Decodable {
        var kind: String
        var names: [Name]?
        var allValues: [String]?
        var shouldDisplay: Bool
    }

    private struct Name: Decodable {
        var kind: String
        var name: String

        /// As it is typed: `--output`, `-o`.
        var typed: String { (kind == "long" ? "--" : "-") + name }
    }
}
