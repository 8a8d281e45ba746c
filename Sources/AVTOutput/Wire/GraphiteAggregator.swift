import AVTCore
import AVTJSON

/// Collects one bucket of values per path and writes each closed bucket as one line, in time
/// order. Records arrive in time order, so a bucket closes when a later one starts.
package struct GraphiteAggregator {
    struct Slot {
        var value: Double
        var count: Int
        var isInteger: Bool
        let summed: Bool
    }

    package let encoder: GraphiteEncoder
    private let startTime: Int
    private var bucket: Int?
    private var order: [String] = []
    private var slots: [String: Slot] = [:]
    /// Paths already built, by metric name and by action: building one splits and sanitises
    /// the prefix Character by Character, which cost more than the rest of the line.
    private var metricPaths: [String: String] = [:]
    private var eventPaths: [Action: String] = [:]

    /// Components between the prefix and the metric name (see `GraphiteEncoder.scope(of:)`).
    private let scope: [String]

    package init(encoder: GraphiteEncoder, startTime: Int, scope: [String] = []) {
        self.encoder = encoder
        self.startTime = startTime
        self.scope = scope
    }

    package mutating func add(_ metric: Metric, into w: inout JSONBuffer) {
        let value: Double
        var isInteger = false
        switch metric.value {
        case .int(let v):
            value = Double(v)
            isInteger = true
        case .double(let v):
            // Carbon drops NaN silently; never send it.
            guard v.isFinite else { return }
            value = v
        }
        let path: String
        if let known = metricPaths[metric.name] {
            path = known
        } else {
            path = encoder.path([metric.name], scope: scope)
            metricPaths[metric.name] = path
        }
        add(
            path: path, value: value, isInteger: isInteger, summed: metric.kind == .counter, t: metric.timestamp,
            into: &w)
    }

    package mutating func add(_ event: Event, into w: inout JSONBuffer) {
        guard encoder.events else { return }
        let path: String
        if let known = eventPaths[event.action] {
            path = known
        } else {
            path = encoder.path(["events", event.action.name], scope: scope)
            eventPaths[event.action] = path
        }
        add(path: path, value: 1, isInteger: true, summed: true, t: event.timestamp, into: &w)
    }

    private mutating func add(
        path: String, value: Double, isInteger: Bool, summed: Bool, t: Int, into w: inout JSONBuffer
    ) {
        let ms = startTime + t
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let step = max(1, encoder.step)
        let start = seconds >= 0 ? seconds / step * step : (seconds - step + 1) / step * step
        if let bucket, bucket != start { flush(into: &w) }
        bucket = start
        guard var slot = slots[path] else {
            order.append(path)
            slots[path] = Slot(value: value, count: 1, isInteger: isInteger, summed: summed)
            return
        }
        slot.count += 1
        slot.isInteger = slot.isInteger && isInteger
        if slot.summed {
            slot.value += value
        } else {
            switch encoder.gauges {
            case .last: slot.value = value
            case .sum, .avg: slot.value += value
            case .min: slot.value = Swift.min(slot.value, value)
            case .max: slot.value = Swift.max(slot.value, value)
            }
        }
        slots[path] = slot
    }

    /// Writes the open bucket.
    package mutating func flush(into w: inout JSONBuffer) {
        guard let bucket else { return }
        for path in order {
            guard let slot = slots[path] else { continue }
            var value = slot.value
            var integer = slot.isInteger
            if !slot.summed, encoder.gauges == .avg, slot.count > 1 {
                value /= Double(slot.count)
                integer = integer && value.rounded() == value
            }
            w.raw(path)
            w.raw(" ")
            if integer, abs(value) < 9e15 { w.int(Int(value)) } else { w.raw(value.description) }
            w.raw(" ")
            w.int(bucket)
            w.raw("\n")
        }
        order.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        self.bucket = nil
    }
}
