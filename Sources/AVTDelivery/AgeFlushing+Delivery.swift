import AVTReplay

// The network backends batch records; the pacer of `run --speed` sends a batch before it is full.
extension InfluxDeliveryBackend: AgeFlushing {
    public func flushPending() { ship() }
}

extension NewRelicDeliveryBackend: AgeFlushing {
    public func flushPending() { endOfService() }
}

extension GraphiteDeliveryBackend: AgeFlushing {}
