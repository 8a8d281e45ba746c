import AVTCore
import AVTOutput
import AVTTimeline
import AVTTrackers
import Foundation
import Synchronization

/// A private directory for a run's intermediate files, removed with everything in it.
package final class TemporaryDirectory: @unchecked Sendable {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "avtreplay-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw OutputError(
                path: NSTemporaryDirectory(), message: "cannot create a temporary directory", isBrokenPipe: false)
        }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
