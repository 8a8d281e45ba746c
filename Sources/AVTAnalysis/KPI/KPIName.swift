/// KPI names in output order (the JSON contract's camelCase keys).
public enum KPIName {
    public static let all = [
        "startupTime", "started", "exitBeforeVideoStart", "startupErrors", "playbackFailed", "errorCount", "playTime",
        "pauseTime", "seekTime", "bufferTime", "rebufferCount", "rebufferTime", "rebufferRatio", "rebufferFrequency",
        "qualityUpCount", "qualityDownCount", "averageBitrate", "averageResolutionHeight", "adBreakCount", "adCount",
        "adCompletedCount", "adSkippedCount", "adTime", "plays", "ends", "requests", "loads",
    ]
}
