#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file as the system knows it: device and inode, the same however it is named (`./x`,
/// `a/../x`, a symlink, a hard link). Used to refuse an output that is one of the inputs, which
/// a write would destroy before (or while) it is read.
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    package init<Device: BinaryInteger, Inode: BinaryInteger>(device: Device, inode: Inode) {
        (self.device, self.inode) = (UInt64(device), UInt64(inode))
    }

    /// nil when nothing is at `path` (stat follows symlinks, so a link names its target).
    package init?(path: String) {
        var info = stat()
        guard path != "-", stat(path, &info) == 0 else { return nil }
        (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// The absolute path of `path` with every symlink, `.` and `..` resolved; nil when nothing is there.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The first output (not `-`) that is the same file as one of `inputs`, if any. An output that
    /// does not exist yet cannot be an input.
    package static func outputOverwritingInput(outputs: [String], inputs: [String]) -> String? {
        let read = Set(inputs.compactMap { FileIdentity(path: $0) })
        return outputs.first { output in FileIdentity(path: output).map(read.contains) ?? false }
    }

    /// Refuses (exit 2 at the command line) to write an output over one of the inputs.
    package static func checkOutputs(_ outputs: [String], notAmong inputs: [String]) throws(OutputError) {
        if let output = outputOverwritingInput(outputs: outputs, inputs: inputs) {
            throw OutputError(
                path: output, message: "it is also an input (writing it would destroy what is read)",
                isBrokenPipe: false)
        }
    }
}
