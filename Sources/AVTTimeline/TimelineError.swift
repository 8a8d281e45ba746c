import AVTJSON

/// A timeline that cannot be replayed: names the file, the place and what was expected.
/// Rendered as `FILE:LINE:COLUMN: PATH: MESSAGE`, parts omitted when unknown.
public struct TimelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input's name.
    public var file: String
    /// The line and column, when the error has one.
    public var location: SourceLocation?
    /// Where in the document, e.g. `steps[3].t`.
    public var path: String?
    /// What is wrong, and what was expected.
    public var message: String
    /// A mistake each command has its own fix for (nil for the others).
    public var reason: Reason?

    /// Mistakes whose fix depends on the command.
    public enum Reason: Sendable, Equatable {
        /// Records as `avtreplay run` writes them, given where a timeline is expected.
        case eventLog
    }

    /// An error in `file` at `location`, inside the member at `path` (`steps[3].observe.rate`).
    public init(
        file: String, location: SourceLocation? = nil, path: String? = nil, message: String, reason: Reason? = nil
    ) {
        self.file = file
        self.location = location
        self.path = path
        self.message = message
        self.reason = reason
    }

    /// An event log given where a timeline is expected.
    public static func eventLog(file: String) -> TimelineError {
        TimelineError(
            file: file, message: "an event log (records as `avtreplay run` writes them), not a timeline",
            reason: .eventLog)
    }

    /// The error with the command's fix for an event log given as a timeline; others as they are.
    package func fixing(eventLog fix: String) -> TimelineError {
        guard reason == .eventLog else { return self }
        var fixed = self
        fixed.message += "; " + fix
        return fixed
    }

    public var description: String {
        var text = file
        if let location { text += ":\(location)" }
        text += ": "
        if let path { text += "\(path): " }
        return text + message
    }
}
