// One import for a library user: `import AVTReplayKit` brings the engine, timelines and their
// readers, the player trackers, the replayer, the record encoders, KPIs and check. Delivery (the
// network backends, which link zlib) is its own product and import: `AVTDelivery`.
@_exported import AVTAnalysis
@_exported import AVTCore
@_exported import AVTJSON
@_exported import AVTKPI
@_exported import AVTOutput
@_exported import AVTReplay
@_exported import AVTTimeline
@_exported import AVTTrackers
