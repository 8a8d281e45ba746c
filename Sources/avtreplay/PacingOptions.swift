import ArgumentParser

/// `run --speed`: replaying in wall-clock time, and how long deliveries may then hold records.
struct PacingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Replay in wall-clock time: 1 = real time, 10 = ten times faster (default: as fast as possible, no waiting).",
            valueName: "x"))
    var speed: Double?

    @Option(
        help: ArgumentHelp("With --speed, the longest a record waits in a batch before it is sent.", valueName: "ms"))
    var deliveryMaxAge: Int = 1000

    func validate() throws {
        if let speed, !(speed > 0 && speed.isFinite) {
            throw ValidationError("--speed must be a number greater than 0, such as 1 or 10.")
        }
        if deliveryMaxAge < 1 { throw ValidationError("--delivery-max-age must be at least 1 ms.") }
    }

    /// `deliveryMaxAge` in seconds, as the pacer takes it.
    var maximumAge: Double { Double(deliveryMaxAge) / 1000 }
}
