#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output that could not be written (a full disk, a closed pipe, a limit).
public struct OutputError: Error, Equatable, CustomStringConvertible {
    /// The output's name.
    public var path: String
    /// What went wrong.
    public var message: String
    /// The reader went away (`avtreplay run … | head`): not worth an error message.
    public var isBrokenPipe: Bool
    /// The output would pass a limit the input set off (`--max-columns`): bad input, not a
    /// failure to write.
    public var isInputLimit = false

    public var description: String { "cannot write \(path): \(message)" }

    /// An error writing `path`.
    public init(path: String, message: String, isBrokenPipe: Bool = false, isInputLimit: Bool = false) {
        self.path = path
        self.message = message
        self.isBrokenPipe = isBrokenPipe
        self.isInputLimit = isInputLimit
    }

    /// A failed system call on `path`, from its `errno`.
    init(path: String, code: Int32) {
        self.init(path: path, message: String(cString: strerror(code)), isBrokenPipe: code == EPIPE)
    }
}
