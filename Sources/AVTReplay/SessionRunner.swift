import AVTCore
import AVTFormats
import AVTOutput
import AVTTimeline
import AVTTrackers
import Foundation
import Synchronization

/// Replays many sessions, each as its own instrument (own hub state, ids and clock), writing
/// their records to one sink in input order. With `jobs > 1`, sessions run on worker threads
/// into temporary files that are copied out in order, so memory stays bounded.
package final class SessionRunner: @unchecked Sendable {
    package struct Configuration: Sendable {
        package var options = RunOptions()
        package var jobs = 1
        package var inputFormat: TimelineFormat?
        /// Trackers for CSV timelines that do not declare their own.
        package var csvTrackers: [TrackerSpec] = []
        /// Adds the `session` field (the input path) to every record.
        package var labelSessions = false
        /// Ctrl-C: sessions stop at their next step and later sessions are not started.
        package var stop: StopRequest?

        package init() {}
    }

    /// What a finished session reports, in input order.
    package struct SessionReport: Sendable {
        package let path: String
        package let summary: ReplaySummary
    }

    package typealias BackendFactory = @Sendable (ByteSink, RecordEncoder, RecordFilter) -> RecordBackend

    private let configuration: Configuration
    private let makeBackend: BackendFactory
    /// Steps replayed so far, across workers (for progress lines).
    package let stepsDone = Atomic<Int>(0)

    package init(_ configuration: Configuration, makeBackend: @escaping BackendFactory) {
        self.configuration = configuration
        self.makeBackend = makeBackend
    }

    /// Replays `sessions` into `sink`. Stops at the first session that fails (in input order) and
    /// throws its error; sessions before it have been written completely.
    package func run(_ sessions: [String], to sink: ByteSink, report: (SessionReport) -> Void) throws {
        if configuration.jobs <= 1 || sessions.count <= 1 {
            for path in sessions {
                if configuration.stop?.isRequested == true { return }
                report(SessionReport(path: path, summary: try replay(path, into: sink)))
            }
        } else {
            try runInParallel(sessions, to: sink, report: report)
        }
    }

    /// One session, start to end, into a sink.
    func replay(_ path: String, into sink: ByteSink) throws -> ReplaySummary {
        var source = try TimelineReader.open(
            path, format: configuration.inputFormat, csvTrackers: configuration.csvTrackers,
            limits: configuration.options.inputLimits)
        let options = try configuration.options.placingEnd(of: path, settings: source.settings) {
            // A second read, to learn the last step: what a player log's reader warns of was
            // said by the first.
            try TimelineReader.open(
                path, format: configuration.inputFormat, csvTrackers: configuration.csvTrackers,
                limits: configuration.options.inputLimits, warn: { _ in })
        }
        let settings = options.applied(to: source.settings)
        let encoder = RecordEncoder(
            trackerNames: settings.trackers.map(\.name), startTime: settings.startTime,
            // The label is a file name: in every format it carries no raw control character.
            session: configuration.labelSessions ? TerminalText.escaped(path) : nil)
        let backend = makeBackend(sink, encoder, options.filter)
        var reported = 0
        let summary = try Replayer.replay(
            &source, options: options, backend: backend, stop: configuration.stop
        ) { steps in
            // Batched so workers do not contend on the counter for every step.
            if steps - reported >= 4096 {
                self.stepsDone.add(steps - reported, ordering: .relaxed)
                reported = steps
            }
        }
        stepsDone.add(summary.steps - reported, ordering: .relaxed)
        if let error = backend.writeError { throw error }
        return summary
    }

    // MARK: Parallel sessions

    private enum Slot {
        case pending
        /// Claimed by a worker after a stop request, so never replayed.
        case skipped
        case done(file: String, summary: ReplaySummary)
        case failed(Error)
    }

    private let lock = NSCondition()
    private var slots: [Slot] = []
    private var nextIndex = 0
    private var cancelled = false

    private func runInParallel(_ sessions: [String], to sink: ByteSink, report: (SessionReport) -> Void) throws {
        let directory = try TemporaryDirectory()
        slots = Array(repeating: .pending, count: sessions.count)
        let workers = (0..<min(configuration.jobs, sessions.count)).map { _ in
            Thread { [self] in work(sessions, in: directory) }
        }
        for worker in workers { worker.start() }
        defer {
            lock.lock()
            cancelled = true
            lock.unlock()
        }
        for (index, path) in sessions.enumerated() {
            lock.lock()
            while case .pending = slots[index] { lock.wait() }
            let slot = slots[index]
            lock.unlock()
            switch slot {
            case .pending:
                continue
            case .skipped:
                return
            case .failed(let error):
                throw error
            case .done(let file, let summary):
                try copy(file, to: sink)
                unlink(file)
                report(SessionReport(path: path, summary: summary))
            }
        }
    }

    private func work(_ sessions: [String], in directory: TemporaryDirectory) {
        while true {
            lock.lock()
            let index = nextIndex
            nextIndex += 1
            let stop = cancelled || index >= sessions.count
            // After Ctrl-C: the index this worker claimed is marked, so the in-order copier
            // (which meets it before any later one) knows the run ends there.
            if !stop, configuration.stop?.isRequested == true {
                slots[index] = .skipped
                lock.broadcast()
                lock.unlock()
                return
            }
            lock.unlock()
            if stop { return }
            let file = directory.path + "/session-\(index)"
            let slot: Slot
            do {
                let sink = try AtomicFileSink(path: file)
                let summary = try replay(sessions[index], into: sink)
                try sink.close()
                slot = .done(file: file, summary: summary)
            } catch {
                slot = .failed(error)
            }
            lock.lock()
            slots[index] = slot
            if case .failed = slot { cancelled = true }
            lock.broadcast()
            lock.unlock()
        }
    }

    private func copy(_ file: String, to sink: ByteSink) throws {
        let target = (sink as? FileDescriptorSink) ?? (sink as? AtomicFileSink)?.descriptor
        if let target {
            let input = open(file, O_RDONLY)
            if input >= 0 {
                defer { close(input) }
                if try target.send(contentsOfFile: input) { return }
            }
        }
        let input = try ByteInput(path: file)
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        while true {
            let n = try input.read(into: &chunk, from: 0)
            if n == 0 { return }
            try sink.write(n == chunk.count ? chunk : Array(chunk[0..<n]))
        }
    }
}
