import AVTCore
import AVTJSON
import AVTTrackers

/// Where a step came from, for error messages and warnings.
public struct StepOrigin: Sendable, Equatable, CustomStringConvertible {
    /// 0-based position in the timeline's steps.
    public var index: Int
    /// The step's line and column in its file; nil for a step built in code.
    public var location: SourceLocation?

    /// The step at `index` (from 0), read at `location`.
    public init(index: Int, location: SourceLocation? = nil) {
        self.index = index
        self.location = location
    }

    public var description: String {
        if let location { return "steps[\(index)] (\(location))" }
        return "steps[\(index)]"
    }
}
