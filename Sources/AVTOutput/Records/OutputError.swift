#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct OutputError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    /// The reader went away (`avtreplay run … | head`): not worth an error message.
    public var isBrokenPipe: Bool

    public var description: String { "cannot write \(path): \(message)" }

    public init(path: String, message: String, isBrokenPipe: Bool = false) {
        self.path = path
        self.message = message
        self.isBrokenPipe = isBrokenPipe
    }

    /// A failed system call on `path`, from its `errno`.
    init(path: String, code: Int32) {
        self.init(path: path, message: String(cString: strerror(code)), isBrokenPipe: code == EPIPE)
    }
}
