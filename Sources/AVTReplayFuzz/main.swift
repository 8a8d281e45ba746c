import AVTCore
import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Mutation fuzzing of the timeline readers (JSON, JSONL, CSV, the player logs) and the replay
// behind them.
// usage: AVTReplayFuzz ITERATIONS SEED FILE...
// Every mutated input must either replay or fail with a TimelineError; anything else (a crash,
// a trap, another error) stops the run with the iteration number, so `--from` reproduces it.

/// Tokens that make mutations land on the grammar's edges rather than only on random bytes.
let tokens: [[UInt8]] =
    [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\n", "\r\n", " ", "-", "0", "1e999", "-1", "9007199254740993",
        "null",
        "true", "1.5", "\"t\"", "\"tracker\"", "\"action\"", "\"set\"", "\"observe\"", "\"steps\"", "\"kind\"",
        "\"avplayer\"",
        "\"rate\"", "\"Start\"", "\u{FEFF}", "\u{00}", "\u{1F}", "é", "#avtreplay ", "\"\"", ",,", "t,tracker,action",
        // The player logs' grammars.
        " [", "eventTime=", "mediaPos=?", "state [", "BUFFERING", "READY", ", true", "PositionInfo:new [", "pos=",
        "positionDiscontinuity [", "playerFailed [", "timeline [", "ExoPlayerImpl: Init 1 [ExoPlayerLib/2.9.0]",
        "03-14 10:21:47.041 1 1 D EventLogger: ", "\"time\": ", "\"key\": ", "\"events\": [",
        "pipeline_buffering_state", "BUFFERING_HAVE_NOTHING", "\"kPause\"", " | ", "\t", "00:00:01 5", "#Fields: ",
        "- - ", "#Software: ", "2026/04/15 15:25:02.002 ",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xED, 0xA0, 0x80]]  // invalid UTF-8, incl. a surrogate

func mutate(_ input: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
    var bytes = input
    // Mostly one mutation, so many inputs stay close enough to valid to reach the replay.
    let count = Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 2...6, using: &rng) : 1
    for _ in 0..<count {
        let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<7, using: &rng) {
        case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &rng)
        case 1 where !bytes.isEmpty: bytes.remove(at: position)
        case 2: bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &rng)], at: position)
        case 3 where !bytes.isEmpty:
            let end = min(bytes.count, position + Int.random(in: 1...40, using: &rng))
            bytes.removeSubrange(position..<end)
        case 4 where !bytes.isEmpty:
            let end = min(bytes.count, position + Int.random(in: 1...60, using: &rng))
            bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &rng))
        case 5: bytes = Array(bytes.prefix(position))
        default:
            if !bytes.isEmpty { bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &rng) }
        }
    }
    return bytes
}

/// A backend that keeps nothing: the fuzzer checks robustness, not output.
final class DiscardingBackend: Backend {
    func sendEvent(_ event: Event) {}
    func sendMetric(_ metric: Metric) {}
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let iterations = Int(arguments[0]), let seed = UInt64(arguments[1]) else {
    print("usage: AVTReplayFuzz ITERATIONS SEED FILE...")
    exit(2)
}
let start = Int(getenv("FUZZ_FROM").map { String(cString: $0) } ?? "0") ?? 0
/// FUZZ_SAVE=PATH writes each input there before replaying it, so a crash leaves it behind.
let savePath = getenv("FUZZ_SAVE").map { String(cString: $0) }
let seeds: [(name: String, bytes: [UInt8], format: TimelineFormat?)] = try arguments.dropFirst(2).map { path in
    let bytes = try ByteInput(path: path).readAll()
    // A player log's format is its content's (a saved Chrome log is named .json).
    let sniffed = TimelineFormat.sniff(Array(bytes.prefix(1 << 16)))
    return (path, bytes, sniffed.isPlayerLog ? sniffed : TimelineFormat.fromExtension(of: path))
}
var options = RunOptions()
// Bound virtual time so a mutated `until` or `t` cannot make one input run for hours.
options.until = 600_000
var accepted = 0
var rejected = 0
for iteration in start..<iterations {
    var rng = SplitMix64(seed: seed &+ UInt64(iteration) &* 0x2545_F491_4F6C_DD1D)
    let base = seeds[iteration % seeds.count]
    let input = mutate(base.bytes, using: &rng)
    // Half the time the format comes from the name, half the time from sniffing the content.
    let format = iteration % 2 == 0 ? base.format : nil
    if let savePath, let file = fopen(savePath, "wb") {
        fputs("\(iteration) \(base.name) format=\(format?.rawValue ?? "sniffed")\n", file)
        _ = input.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }
    // Every fourth input meets tight input limits, so each limit's check (line, document, name,
    // key and column counts) is crossed at arbitrary places; the others get room for the names
    // that 10^5 mutated inputs intern in one process.
    let bytes = ByteInput(bytes: input, name: "fuzz")
    bytes.limits.maxKeys = Int.max
    if iteration % 4 == 1 {
        bytes.limits.maxLineBytes = Int.random(in: 1...512, using: &rng)
        bytes.limits.maxDocumentBytes = Int.random(in: 1...4096, using: &rng)
        bytes.limits.maxNameBytes = Int.random(in: 1...16, using: &rng)
        bytes.limits.maxColumns = Int.random(in: 1...12, using: &rng)
        bytes.limits.maxKeys = Int.random(in: 1...400, using: &rng)
    }
    // The replay's own bounds too: a record limit crossed at an arbitrary record (between two
    // timers, or at a step), a ping minimum that many mutated intervals fall under, and (one input
    // in 16: encoding every record is most of a debug run's time) an output byte limit crossed at
    // an arbitrary flush (the records are then encoded, as `run` does).
    var bounded = options
    var outputLimit: Int?
    if iteration % 4 == 3 {
        bounded.maxRecords = Int.random(in: 1...200, using: &rng)
        bounded.minPingInterval = Int.random(in: 1...60_000, using: &rng)
        if iteration % 16 == 3 { outputLimit = Int.random(in: 1...(1 << 14), using: &rng) }
    }
    do {
        // The player logs' warnings are discarded: the fuzzer checks robustness, not messages.
        var source = try TimelineReader.open(
            bytes, format: format,
            csvTrackers: [
                TrackerSpec(name: "content", kind: .avplayer), TrackerSpec(name: "ads", kind: .ima),
            ], warn: { _ in })
        if let outputLimit {
            let settings = bounded.applied(to: source.settings)
            let output = OutputByteLimit(MemorySink(), limit: outputLimit)
            let backend = JSONLinesBackend(
                sink: output,
                encoder: RecordEncoder(trackerNames: settings.trackers.map(\.name), startTime: settings.startTime))
            _ = try Replayer.replay(&source, options: bounded, backend: backend, output: output)
        } else {
            _ = try Replayer.replay(&source, options: bounded, backend: DiscardingBackend())
        }
        accepted += 1
    } catch is TimelineError {
        rejected += 1
    } catch {
        print("iteration \(iteration) (\(base.name)): unexpected error \(error)")
        exit(1)
    }
    if iteration % 10_000 == 0 { print("fuzz: \(iteration)/\(iterations)") }
}
print("fuzz: \(iterations - start) inputs, \(accepted) replayed, \(rejected) rejected with a located error, 0 crashes")
