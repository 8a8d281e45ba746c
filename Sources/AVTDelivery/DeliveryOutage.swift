import AVTCore
import AVTJSON
import AVTOutput
import AVTTimeline
import Foundation

/// Whether a destination is down: it used up every attempt on a batch and has not answered
/// since. Later batches then get one attempt each instead of the whole backoff, so a server
/// that stays down costs a long replay seconds, not hours, before its records reach the
/// dead-letter file; the first answer (a success, or a refusal of the batch) lifts it.
package final class DeliveryOutage: @unchecked Sendable {
    private let lock = NSLock()
    private var down = false

    var isDown: Bool {
        get { lock.withLock { down } }
        set { lock.withLock { down = newValue } }
    }
}
