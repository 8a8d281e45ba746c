/// What a command accepts, as far as telling a mistyped command line goes: each option's names,
/// whether it takes a value, and the values it allows when they are a fixed set.
package struct CommandLineOptions: Sendable, Equatable {
    package struct Option: Sendable, Equatable {
        /// As typed: `-o`, `--output`.
        package var names: [String]
        package var takesValue: Bool
        /// nil: any value.
        package var values: [String]?
        /// Hidden options are accepted but never suggested.
        package var shown: Bool

        package init(names: [String], takesValue: Bool, values: [String]? = nil, shown: Bool = true) {
            (self.names, self.takesValue, self.values, self.shown) = (names, takesValue, values, shown)
        }

        /// How a suggestion names it: `-o/--output`.
        package var display: String { names.joined(separator: "/") }
    }

    package var options: [Option]

    package init(_ options: [Option]) { self.options = options }

    package func option(named name: String) -> Option? { options.first { $0.names.contains(name) } }

    /// The long names (`output`, without dashes) of the options a suggestion may name.
    var longNames: [String] {
        options.filter(\.shown).flatMap(\.names).filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
    }

    /// The option whose long name is `--name`.
    func option(long name: String) -> Option? { option(named: "--" + name) }
}
