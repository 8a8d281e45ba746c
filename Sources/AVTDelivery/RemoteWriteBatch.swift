import AVTOutput

/// A batch of samples for remote write, as the replay hands it to the sender thread: the
/// samples as numbers, with the table of their series (`RemoteWriteSeriesTable`). A sample is
/// printed as its OpenMetrics line only when it does not go (dead letters), so a delivered batch
/// is never text.
struct RemoteWriteBatch: SenderBatch {
    var samples: [PrometheusSample] = []
    var series = RemoteWriteSeriesTable()
    /// The lines the samples were read from (`avtreplay send`), by series number: each line is
    /// its own series there, and a dead letter keeps the line as it was. Nil for a replay's
    /// samples, whose lines are printed from them.
    var lines: [String]?

    init() {}

    var count: Int { samples.count }

    mutating func removeAll(keepingCapacity: Bool) {
        samples.removeAll(keepingCapacity: keepingCapacity)
        lines = nil
    }

    /// The sample's OpenMetrics line: the line `--format openmetrics` prints for it.
    func line(_ sample: PrometheusSample) -> String {
        if let lines { return lines[Int(sample.series)] }
        return series.texts[Int(sample.series)] + " " + PrometheusSampleWriter.number(sample.value) + " "
            + PrometheusSampleWriter.timestamp(sample.milliseconds)
    }
}
