/// Where a replay's input warnings go (what a player log's reader skipped or inferred): nowhere
/// unless the caller says; the command line prints them. Kept in `RunOptions` so every path
/// that replays a file (run, check, report) reaches the one handler its caller chose.
package struct WarningHandler: Sendable, Equatable {
    package let warn: @Sendable (String) -> Void

    package init(_ warn: @escaping @Sendable (String) -> Void) { self.warn = warn }

    /// Warnings dropped.
    package static let silent = WarningHandler { _ in }

    /// Options compare by what they change in the records, and where warnings go changes none.
    package static func == (a: WarningHandler, b: WarningHandler) -> Bool { true }
}
