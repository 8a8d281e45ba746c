/// Finds the first mistake in a command line that the argument parser would report without its
/// fix (or not at all, when it complains first about a missing argument), and says the fix:
/// the option or subcommand a near-miss meant, `--output` for `-output`, the value nearest an
/// invalid one with the valid values. Asked only once parsing has failed.
package enum ArgumentMistake {
    /// A mistake in the arguments after the subcommand, or nil when none is found.
    package static func find(in arguments: [String], options: CommandLineOptions) -> String? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return nil }
            guard argument.hasPrefix("-"), argument != "-", !isNumber(argument) else { continue }
            let (name, inline) = split(argument)
            if let option = options.option(named: name), name.hasPrefix("--") || name.count == 2 {
                guard option.takesValue else { continue }
                var value = inline
                if value == nil, index < arguments.count, isValue(arguments[index]) {
                    value = arguments[index]
                    index += 1
                }
                if let value, let problem = invalid(value, for: name, of: option) { return problem }
                continue
            }
            if name.hasPrefix("--") { return unknownLong(name, options: options) }
            if let problem = singleDash(name, options: options) { return problem }
        }
        return nil
    }

    /// A first argument that is not a subcommand: the one it resembles, or the list.
    package static func unknownSubcommand(_ name: String, among subcommands: [String]) -> String {
        let near = NameSuggestion.candidates(for: name, among: subcommands)
        if !near.isEmpty { return "Unknown subcommand '\(name)'. Did you mean \(NameSuggestion.phrase(near))?" }
        return "Unknown subcommand '\(name)'. The subcommands are: \(subcommands.joined(separator: ", "))."
    }

    private static func unknownLong(_ name: String, options: CommandLineOptions) -> String {
        let near = NameSuggestion.candidates(for: String(name.dropFirst(2)), among: options.longNames)
            .compactMap { options.option(long: $0)?.display }
        guard !near.isEmpty else { return "Unknown option '\(name)'." }
        return "Unknown option '\(name)'. Did you mean \(NameSuggestion.phrase(unique(near)))?"
    }

    /// `-output`: a long option written with one dash, unless it is a run of short flags (`-oh`
    /// is never meant here: -o takes a value). Nil when nothing resembles it.
    private static func singleDash(_ name: String, options: CommandLineOptions) -> String? {
        let body = String(name.dropFirst().prefix { $0 != "=" })
        if body.count == 1 { return "Unknown option '\(name)'." }
        let shortFlags = body.allSatisfy { options.option(named: "-\($0)").map { !$0.takesValue } ?? false }
        if shortFlags { return nil }
        let long =
            options.option(long: body) != nil ? [body] : NameSuggestion.candidates(for: body, among: options.longNames)
        guard !long.isEmpty else { return "Unknown option '\(name)'." }
        let spelled = long.map { "--" + $0 }
        return "Unknown option '\(name)': long options take two dashes; use \(NameSuggestion.phrase(spelled))."
    }

    private static func invalid(_ value: String, for name: String, of option: CommandLineOptions.Option) -> String? {
        guard let allowed = option.values, !allowed.contains(value) else { return nil }
        let near = NameSuggestion.candidates(for: value, among: allowed)
        let hint = near.isEmpty ? "" : " Did you mean \(NameSuggestion.phrase(near))?"
        return "The value '\(value)' is invalid for '\(name)'.\(hint) Valid values: \(allowed.joined(separator: ", "))."
    }

    /// `--name=value` as name and value.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// What the parser takes as an option's value: anything but another option.
    private static func isValue(_ argument: String) -> Bool {
        !argument.hasPrefix("-") || argument == "-" || isNumber(argument)
    }

    private static func isNumber(_ argument: String) -> Bool { Double(argument) != nil }

    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
