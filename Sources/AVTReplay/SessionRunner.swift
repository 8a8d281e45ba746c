import AVTCore
import AVTFormats
import AVTOutput
import AVTTimeline
import AVTTrackers
import Foundation

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
        /// Adds the `session` field (`sessionName`) to every record.
        package var labelSessions = false
        /// `--label` and `--no-session-label`: the labels every series carries.
        package var seriesLabels = SeriesLabels()
        /// A session's name (its path relative to the folder given), for records and series labels.
        package var sessionName: @Sendable (String) -> String = { Shard.name(of: $0, in: nil) }
        /// Ctrl-C: sessions stop at their next step and later sessions are not started.
        package var stop: StopRequest?
        /// `--keep-going`: a session that is bad input (a `TimelineError`) is left out, its
        /// records with it, and the others run; see `run(_:to:report:skipped:)`.
        package var keepGoing = false
        /// Counts the steps replayed, for a progress line; shared by the runners of one command.
        package var steps = StepCounter()

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
    package var stepsDone: StepCounter { configuration.steps }

    package init(_ configuration: Configuration, makeBackend: @escaping BackendFactory) {
        self.configuration = configuration
        self.makeBackend = makeBackend
    }

    /// Replays `sessions` into `sink`. Stops at the first session that fails (in input order) and
    /// throws its error; sessions before it have been written completely. With `keepGoing`, a
    /// session that is bad input goes to `skipped` instead, none of its records written (each
    /// session is replayed into a file of its own first), and the run goes on.
    package func run(
        _ sessions: [String], to sink: ByteSink, report: (SessionReport) -> Void,
        skipped: (String, TimelineError) -> Void = { _, _ in }
    ) throws {
        if configuration.keepGoing {
            try runInParallel(sessions, to: sink, report: report, skipped: skipped)
        } else if configuration.jobs <= 1 || sessions.count <= 1 {
            var written = 0
            for path in sessions {
                if configuration.stop?.isRequested == true { return }
                let output = OutputByteLimit(sink, limit: configuration.options.maxOutputBytes, written: written)
                report(SessionReport(path: path, summary: try replay(path, into: output)))
                written = output.written
            }
        } else {
            try runInParallel(sessions, to: sink, report: report, skipped: skipped)
        }
    }

    /// One session, start to end, into a sink that counts its bytes against `--max-output-bytes`.
    /// `quiet` drops a player log's warnings (a second replay of a session that already said them).
    func replay(_ path: String, into sink: OutputByteLimit, quiet: Bool = false) throws -> ReplaySummary {
        var source =
            quiet
            ? try TimelineReader.open(
                path, format: configuration.inputFormat, csvTrackers: configuration.csvTrackers,
                limits: configuration.options.inputLimits, warn: { _ in })
            : try TimelineReader.open(
                path, format: configuration.inputFormat, csvTrackers: configuration.csvTrackers,
                limits: configuration.options.inputLimits, warn: configuration.options.warnings.warn)
        let options = try configuration.options.placingEnd(of: path, settings: source.settings) {
            // A second read, to learn the last step: what a player log's reader warns of was
            // said by the first.
            try TimelineReader.open(
                path, format: configuration.inputFormat, csvTrackers: configuration.csvTrackers,
                limits: configuration.options.inputLimits, warn: { _ in })
        }
        let settings = options.applied(to: source.settings)
        var encoder = RecordEncoder(
            trackerNames: settings.trackers.map(\.name), startTime: settings.startTime,
            // The label is a file name: in every format it carries no raw control character.
            session: configuration.labelSessions ? TerminalText.escaped(configuration.sessionName(path)) : nil)
        encoder.labels = configuration.seriesLabels.pairs
        if configuration.labelSessions, configuration.seriesLabels.session {
            encoder.seriesSession = TerminalText.escaped(configuration.sessionName(path))
        }
        // `--end-time` places the session's end there; else its `until`, when it has one.
        let placed = configuration.options.startTime == nil ? options.endTime : nil
        encoder.endTime = placed ?? settings.until.map { settings.startTime + $0 }
        let backend = makeBackend(sink, encoder, options.filter)
        var counted = StepCounter.Batch(configuration.steps)
        let summary = try Replayer.replay(
            &source, options: options, backend: backend, stop: configuration.stop, output: sink
        ) { counted.reached($0) }
        counted.finish(summary.steps)
        if let error = backend.writeError { throw error }
        return summary
    }

    // MARK: Parallel sessions

    private enum Slot {
        case pending
        /// Claimed by a worker after a stop request, so never replayed.
        case skipped
        /// `bytes`: what the session wrote, counted against `--max-output-bytes` as it is copied.
        case done(file: String, summary: ReplaySummary, bytes: Int)
        /// The session alone passed `--max-output-bytes`.
        case outgrown
        case failed(Error)
    }

    private let lock = NSCondition()
    private var slots: [Slot] = []
    private var nextIndex = 0
    private var cancelled = false

    private func runInParallel(
        _ sessions: [String], to sink: ByteSink, report: (SessionReport) -> Void,
        skipped: (String, TimelineError) -> Void
    ) throws {
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
        // Bytes copied so far. A session that would take them past the limit is replayed again
        // counting from there (into nothing): the error then names the step a serial run names.
        var copied = 0
        let limit = configuration.options.maxOutputBytes
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
            case .failed(let error as TimelineError) where configuration.keepGoing:
                skipped(path, error)
            case .failed(let error):
                throw error
            case .outgrown:
                throw outgrowing(path, after: copied)
            case .done(let file, _, let bytes) where bytes > limit - copied:
                unlink(file)
                throw outgrowing(path, after: copied)
            case .done(let file, let summary, let bytes):
                copied += bytes
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
                let output = OutputByteLimit(sink, limit: configuration.options.maxOutputBytes)
                do {
                    let summary = try replay(sessions[index], into: output)
                    try sink.close()
                    slot = .done(file: file, summary: summary, bytes: output.written)
                } catch {
                    slot = output.isExceeded ? .outgrown : .failed(error)
                }
            } catch {
                slot = .failed(error)
            }
            lock.lock()
            slots[index] = slot
            switch slot {
            case .failed(let error) where !(configuration.keepGoing && error is TimelineError): cancelled = true
            case .outgrown: cancelled = true
            default: break
            }
            lock.broadcast()
            lock.unlock()
        }
    }

    /// The error of a session that takes the output past `--max-output-bytes` when `copied`
    /// bytes are already written: where a serial run stops. Standard input cannot be read
    /// again, so there (and should a second replay not reach the limit) it names the session.
    private func outgrowing(_ path: String, after copied: Int) -> Error {
        let limit = configuration.options.maxOutputBytes
        if path != "-" {
            let output = OutputByteLimit(DiscardingSink(), limit: limit, written: copied)
            do {
                _ = try replay(path, into: output, quiet: true)
            } catch {
                if output.isExceeded { return error }
            }
        }
        return OutputByteLimit.error(path, limit: limit)
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
