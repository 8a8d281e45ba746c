/// One Prometheus sample as `PrometheusSampleWriter` makes it: its series (an index into the
/// writer's `series`, whose text is `name{label="value",…}`), its value and its epoch
/// milliseconds. Remote write sends these as they are; `--format openmetrics` prints each as
/// `series value seconds.mmm`. Kept as numbers rather than text because a run makes millions and
/// the remote-write path used to print each one only to read it back.
package struct PrometheusSample: Sendable, Equatable {
    package var series: Int32
    /// Canonical (`canonical(_:)`): what the printed text reads back as.
    package var value: Double
    package var milliseconds: Int

    package init(series: Int32, value: Double, milliseconds: Int) {
        (self.series, self.value, self.milliseconds) = (series, Self.canonical(value), milliseconds)
    }

    /// The value the sample's text (`PrometheusSampleWriter.number`) reads back as: -0 prints as
    /// `0` and every NaN as `NaN`, so a sample sent as a number says exactly what the printed one
    /// does, and two samples print alike exactly when their canonical bits are equal.
    package static func canonical(_ value: Double) -> Double {
        if value.isNaN { return .nan }
        return value == 0 ? 0 : value
    }

    /// Whether two values print alike (`PrometheusSampleWriter.number`).
    package static func same(_ a: Double, _ b: Double) -> Bool {
        canonical(a).bitPattern == canonical(b).bitPattern
    }
}
