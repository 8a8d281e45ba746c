import AVTReplay

// The network backends batch records; the pacer of `run --speed` sends a batch before it is full.
extension InfluxDeliveryBackend: AgeFlushing {
    package func flushPending() { ship() }
}

extension NewRelicDeliveryBackend: AgeFlushing {
    package func flushPending() { endOfService() }
}

extension GraphiteDeliveryBackend: AgeFlushing {}
