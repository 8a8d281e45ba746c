import AVTDelivery
import AVTReplay
import ArgumentParser

/// How a run batches and retries its deliveries.
struct BatchOptions: ParsableArguments {
    @Option(help: ArgumentHelp("First retry delay in ms (doubled per attempt, with jitter).", valueName: "ms"))
    var deliveryRetryDelay: Int = 250

    @Option(help: ArgumentHelp("Records per request to a server.", valueName: "n"))
    var deliveryBatch: Int = 5000

    func validate() throws {
        if deliveryBatch < 1 { throw ValidationError("--delivery-batch must be at least 1.") }
        if deliveryRetryDelay < 0 { throw ValidationError("--delivery-retry-delay must be ≥ 0 ms.") }
    }

    func policy(attempts: Int, gzip: DeliveryPolicy.GzipPolicy, stop: StopRequest) -> DeliveryPolicy {
        var policy = DeliveryPolicy()
        (policy.attempts, policy.baseDelay, policy.batchLines, policy.gzip, policy.stop) = (
            attempts, deliveryRetryDelay, deliveryBatch, gzip, stop
        )
        return policy
    }
}
