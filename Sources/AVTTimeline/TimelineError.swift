import AVTJSON

/// A timeline that cannot be replayed: names the file, the place and what was expected.
/// Rendered as `FILE:LINE:COLUMN: PATH: MESSAGE`, parts omitted when unknown.
public struct TimelineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation?
    /// Where in the document, e.g. `steps[3].t`.
    public var path: String?
    public var message: String

    public init(file: String, location: SourceLocation? = nil, path: String? = nil, message: String) {
        self.file = file
        self.location = location
        self.path = path
        self.message = message
    }

    public var description: String {
        var text = file
        if let location { text += ":\(location)" }
        text += ": "
        if let path { text += "\(path): " }
        return text + message
    }
}
