import AVTDelivery
import AVTReplay
import ArgumentParser

/// How a command that delivers to servers (`run`, `send`) batches, waits and retries.
struct BatchOptions: ParsableArguments {
    @Option(help: ArgumentHelp("First retry delay in ms (doubled per attempt, with jitter).", valueName: "ms"))
    var deliveryRetryDelay: Int = 250

    @Option(help: ArgumentHelp("Records per request to a server.", valueName: "n"))
    var deliveryBatch: Int = 5000

    @Option(
        help: ArgumentHelp(
            "Seconds to wait for a server's answer to a request before trying again.",
            valueName: "s"))
    var deliveryTimeout: Double = 10

    func validate() throws {
        if deliveryBatch < 1 { throw ValidationError("--delivery-batch must be at least 1.") }
        if deliveryRetryDelay < 0 { throw ValidationError("--delivery-retry-delay must be ≥ 0 ms.") }
        if !(deliveryTimeout > 0) || deliveryTimeout > 86_400 {
            throw ValidationError("--delivery-timeout must be more than 0 and at most 86400 s.")
        }
    }

    func policy(
        attempts: Int, gzip: DeliveryPolicy.GzipPolicy, windows: WindowOptions, stop: StopRequest? = nil
    ) -> DeliveryPolicy {
        var policy = DeliveryPolicy()
        (policy.attempts, policy.baseDelay, policy.batchLines, policy.gzip, policy.stop) = (
            attempts, deliveryRetryDelay, deliveryBatch, gzip, stop
        )
        (policy.timeout, policy.influxRetention) = (deliveryTimeout, windows.influxRetention)
        return policy
    }
}
