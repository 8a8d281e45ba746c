import AVTCore
import AVTOutput

/// A backend that holds records in a batch and can send them before the batch is full. The
/// pacer of `run --speed` calls it so that, when records trickle in at wall-clock pace, none
/// waits in a batch longer than the batch's maximum age.
package protocol AgeFlushing: AnyObject {
    /// Sends what is complete and waiting.
    func flushPending()
}

extension FanOutBackend: AgeFlushing {
    public func flushPending() {
        for case let backend as AgeFlushing in backends { backend.flushPending() }
    }
}

/// Live output on a terminal or pipe at `--speed`.
extension JSONLinesBackend: AgeFlushing {
    public func flushPending() { flush() }
}
