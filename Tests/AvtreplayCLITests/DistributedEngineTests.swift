import Foundation
import XCTest

/// A corpus run on a real distributed engine: `scripts/engine-dask.py` submits one Dask task per
/// shard to a LocalCluster of two worker processes over loopback and merges on the driver, and
/// the Kubernetes Indexed Job of `docs/k8s/kpi-indexed-job.yaml` runs its command line for every
/// index. Both must give what one machine gives: the KPIs byte for byte, every record once.
///
/// Needs Python's `dask.distributed` and `yaml`: under plain `swift test` the tests skip without
/// them (with the reason); `scripts/test` installs them and sets AVTREPLAY_REQUIRE_TOOLS=1, which
/// makes a missing module a failure.
final class DistributedEngineTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        try Self.makeCorpus(at: dir.appendingPathComponent("corpus"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// 44 sessions of varied kinds: the fixtures (every player kind, an AVMetrics log, players'
    /// own logs), copies of the JSON fixtures under another name, and generated sessions of 1 to 3
    /// trackers, as JSON and JSON Lines, in a subfolder.
    static func makeCorpus(at corpus: URL) throws {
        let files = FileManager.default
        try files.copyItem(at: CLI.packageRoot.appendingPathComponent("fixtures"), to: corpus)
        for package in ["consumer-package", "library-package"] {
            try files.removeItem(at: corpus.appendingPathComponent(package))
        }
        let copies = corpus.appendingPathComponent("copies")
        try files.createDirectory(at: copies, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: corpus.path) where name.hasSuffix(".json") {
            try files.copyItem(
                at: corpus.appendingPathComponent(name), to: copies.appendingPathComponent("copy-" + name))
        }
        let generated = corpus.appendingPathComponent("generated")
        try files.createDirectory(at: generated, withIntermediateDirectories: true)
        let script = """
            for i in $(seq 1 12); do
              format=json; [ $((i % 2)) = 0 ] && format=jsonl
              python3 scripts/gen-timeline.py $((200 * i)) --seed "$i" --trackers $((i % 3 + 1)) --format $format \
                > "$1/g$i.$format" || exit 1
            done
            """
        let gen = try python(["-c", script, "sh", generated.path], shell: true)
        XCTAssertEqual(gen.status, 0, gen.stderr)
    }

    /// `python3 ARGUMENTS` (or `/bin/sh ARGUMENTS`) in the package root.
    private static func python(_ arguments: [String], shell: Bool = false, in directory: URL = CLI.packageRoot)
        throws -> CLIResult
    {
        try CLI.run(
            shell ? arguments : ["python3"] + arguments, in: directory,
            executable: URL(fileURLWithPath: shell ? "/bin/sh" : "/usr/bin/env"))
    }

    /// Skips (or, under scripts/test, fails) when Python cannot import `module`.
    private func requirePython(_ module: String, install: String) throws {
        let probe = try Self.python(["-c", "import \(module)"])
        guard probe.status != 0 else { return }
        let reason = "python3 cannot import \(module) (\(install); scripts/test installs it)"
        if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
            XCTFail(reason + ": " + probe.stderr)
        }
        throw XCTSkip(reason)
    }

    private func dask(_ arguments: [String]) throws -> CLIResult {
        try Self.python(
            [CLI.packageRoot.appendingPathComponent("scripts/engine-dask.py").path]
                + arguments + ["--avtreplay", try CLI.binary.path],
            in: dir)
    }

    private func read(_ name: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    /// Each session's records, in the order it wrote them. The shards hold disjoint sets of
    /// sessions and each session is replayed alone (its own instrument, seeded ids, clock), so
    /// its records are the same lines wherever it runs; only the order of the sessions differs
    /// (grouped by shard, against one run's name order). A session found in two shards would
    /// have its lines twice, a lost one none: either makes the groups differ.
    private func recordsBySession(_ jsonl: String) throws -> [String: [String]] {
        var sessions: [String: [String]] = [:]
        for line in jsonl.split(separator: "\n") {
            let record = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            let session = try XCTUnwrap(record["session"] as? String, "a record without its session: \(line)")
            sessions[session, default: []].append(String(line))
        }
        return sessions
    }

    func testDaskShardsMergeIntoTheSingleMachineKPIsAndRecords() throws {
        try requirePython("dask.distributed", install: "python3 -m pip install 'dask[distributed]'")
        let kpi = try CLI.run(["kpi", "corpus", "--aggregate", "--format", "json"], in: dir)
        XCTAssertEqual(kpi.status, 0, kpi.stderr)
        let run = try CLI.run(["run", "corpus"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let single = try recordsBySession(run.stdout)
        XCTAssertEqual(single.count, 44, "sessions in the corpus")
        for n in [4, 7] {
            let result = try dask(["corpus", "--out", "out-\(n)", "--tasks", String(n), "--records"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try read("out-\(n)/kpi.json"), kpi.stdout, "\(n) tasks: the merged KPIs")
            let joined = try read("out-\(n)/run.jsonl")
            let shards = try (1...n).map { try read("out-\(n)/run-\($0).jsonl") }
            XCTAssertEqual(joined, shards.joined(), "\(n) tasks: run.jsonl is the shards in order")
            XCTAssertGreaterThan(shards.filter { !$0.isEmpty }.count, 1, "\(n) tasks: the work was split")
            XCTAssertEqual(try recordsBySession(joined), single, "\(n) tasks: every session's records, once")
            XCTAssertEqual(
                joined.split(separator: "\n").count, run.stdout.split(separator: "\n").count, "\(n) tasks")
        }
    }

    /// A cluster as one is deployed: a `dask scheduler` process and a `dask worker` process of two
    /// worker processes, on loopback; the script is given the scheduler's address, and the tasks
    /// write their parts straight into the shared output folder (`--shared-out`).
    func testAStandaloneSchedulerAndItsWorkersTakeTheTasks() throws {
        try requirePython("dask.distributed", install: "python3 -m pip install 'dask[distributed]'")
        let schedulerFile = dir.appendingPathComponent("scheduler.json")
        var started: [Process] = []
        defer {
            for process in started.reversed() {
                process.terminate()
                process.waitUntilExit()
            }
        }
        func start(_ arguments: [String], log: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-m"] + arguments
            process.currentDirectoryURL = dir
            let logFile = dir.appendingPathComponent(log)
            XCTAssertTrue(FileManager.default.createFile(atPath: logFile.path, contents: nil))
            process.standardOutput = try FileHandle(forWritingTo: logFile)
            process.standardError = process.standardOutput
            try process.run()
            started.append(process)
        }
        try start(
            [
                "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                "--scheduler-file", schedulerFile.path,
            ], log: "scheduler.log")
        // The scheduler writes its file once it listens.
        var address: String?
        let listening = Readiness.wait {
            guard let data = try? Data(contentsOf: schedulerFile),
                let info = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return false }
            address = info["address"] as? String
            return address != nil
        }
        XCTAssertTrue(listening, "the scheduler wrote no address: \((try? read("scheduler.log")) ?? "")")
        let scheduler = try XCTUnwrap(address)
        XCTAssertTrue(scheduler.hasPrefix("tcp://127.0.0.1:"), scheduler)
        try start(
            [
                "distributed.cli.dask_worker", "--scheduler-file", schedulerFile.path, "--nworkers", "2",
                "--nthreads", "1", "--no-dashboard", "--local-directory", dir.appendingPathComponent("worker").path,
            ], log: "worker.log")
        let single = try CLI.run(["kpi", "corpus", "--aggregate", "--format", "json"], in: dir)
        XCTAssertEqual(single.status, 0, single.stderr)
        // Tasks wait in the scheduler until the workers have joined.
        let result = try dask(["corpus", "--out", "shared", "--tasks", "5", "--scheduler", scheduler, "--shared-out"])
        XCTAssertEqual(result.status, 0, result.stderr + ((try? read("worker.log")) ?? ""))
        XCTAssertEqual(try read("shared/kpi.json"), single.stdout)
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("shared").path)
        XCTAssertEqual(parts.sorted(), ["kpi.json"] + (1...5).map { "part-\($0).jsonl" })
    }

    func testAFailedTaskFailsTheScriptNamingItsShard() throws {
        try requirePython("dask.distributed", install: "python3 -m pip install 'dask[distributed]'")
        let happy = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"))
        try happy.prefix(300).write(to: dir.appendingPathComponent("corpus/zz-cut.json"))
        // The shard the cut file falls in, as avtreplay decides it.
        let failing = try (1...4).filter { k in
            try CLI.run(["kpi", "corpus", "--shard", "\(k)/4", "--format", "partial"], in: dir).status != 0
        }
        XCTAssertEqual(failing.count, 1)
        let k = try XCTUnwrap(failing.first)
        let result = try dask(["corpus", "--out", "out", "--tasks", "4"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("kpi shard \(k)/4 failed: avtreplay kpi exited 2"), result.stderr)
        XCTAssertTrue(result.stderr.contains("zz-cut.json"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 of 4 tasks failed; nothing merged"), result.stderr)
        for other in 1...4 where other != k {
            XCTAssertFalse(result.stderr.contains("shard \(other)/4 failed"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/kpi.json").path))
        // With --keep-going, the others' KPIs, as one kpi --keep-going prints them, and exit 2.
        let single = try CLI.run(["kpi", "corpus", "--keep-going", "--aggregate", "--format", "json"], in: dir)
        XCTAssertEqual(single.status, 2, single.stderr)
        let kept = try dask(["corpus", "--out", "kept", "--tasks", "4", "--keep-going"])
        XCTAssertEqual(kept.status, 2, kept.stderr)
        XCTAssertTrue(kept.stderr.contains("kpi shard \(k)/4: avtreplay: error: "), kept.stderr)
        XCTAssertEqual(try read("kept/kpi.json"), single.stdout)
    }

    /// The manifest's command line, run for every index with the corpus and output volumes at
    /// temporary paths and `avtreplay` the built binary; its parts merge into one kpi's output.
    func testTheKubernetesIndexedJobCommandCoversTheCorpusForEveryIndex() throws {
        try requirePython("yaml", install: "apt-get install python3-yaml, or python3 -m pip install pyyaml")
        let manifest = CLI.packageRoot.appendingPathComponent("docs/k8s/kpi-indexed-job.yaml")
        let parsed = try Self.python([
            "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", manifest.path,
        ])
        XCTAssertEqual(parsed.status, 0, parsed.stderr)
        let job = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(job["kind"] as? String, "Job")
        let spec = try XCTUnwrap(job["spec"] as? [String: Any])
        XCTAssertEqual(spec["completionMode"] as? String, "Indexed")
        let completions = try XCTUnwrap(spec["completions"] as? Int)
        let parallelism = try XCTUnwrap(spec["parallelism"] as? Int)
        XCTAssertTrue((1...completions).contains(parallelism), "parallelism \(parallelism)")
        let pod = try XCTUnwrap((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        XCTAssertEqual(pod["restartPolicy"] as? String, "Never")
        let containers = try XCTUnwrap(pod["containers"] as? [[String: Any]])
        XCTAssertEqual(containers.count, 1)
        let command = try XCTUnwrap(containers[0]["command"] as? [String])
        XCTAssertEqual(Array(command.prefix(2)), ["sh", "-c"])
        var script = try XCTUnwrap(command.last)
        XCTAssertTrue(script.contains("--shard $((JOB_COMPLETION_INDEX + 1))/\(completions) "), script)
        // Each mount is a volume of the pod; its path is replaced by a temporary folder.
        let volumes = Set(try XCTUnwrap(pod["volumes"] as? [[String: Any]]).compactMap { $0["name"] as? String })
        let mounts = try XCTUnwrap(containers[0]["volumeMounts"] as? [[String: Any]])
        var local: [String: URL] = [:]
        for mount in mounts {
            let name = try XCTUnwrap(mount["name"] as? String)
            let path = try XCTUnwrap(mount["mountPath"] as? String)
            XCTAssertTrue(volumes.contains(name), "the mount \(name) has no volume")
            local[path] = dir.appendingPathComponent("volume-\(name)")
        }
        XCTAssertEqual(Set(local.keys), ["/corpus", "/out"])
        try FileManager.default.moveItem(at: dir.appendingPathComponent("corpus"), to: try XCTUnwrap(local["/corpus"]))
        try FileManager.default.createDirectory(at: try XCTUnwrap(local["/out"]), withIntermediateDirectories: true)
        for (path, url) in local {
            script = script.replacingOccurrences(
                of: #"(?<![\w/.-])\#(path)(?=/|\s|$)"#, with: url.path, options: .regularExpression)
        }
        XCTAssertFalse(script.contains(" /corpus") || script.contains(" /out"), script)
        let binDir = try CLI.binary.deletingLastPathComponent().path
        let path = binDir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for index in 0..<completions {
            let pod = try CLI.run(
                ["-c", script], environment: ["JOB_COMPLETION_INDEX": String(index), "PATH": path], in: dir,
                executable: URL(fileURLWithPath: "/bin/sh"))
            XCTAssertEqual(pod.status, 0, "index \(index): \(pod.stderr)")
        }
        let out = try XCTUnwrap(local["/out"])
        let parts = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(parts, (0..<completions).map { "part-\($0).jsonl" }.sorted())
        let merged = try CLI.run(
            ["kpi", "--merge"] + parts.map { out.appendingPathComponent($0).path } + [
                "--aggregate", "--format", "json",
            ],
            in: dir)
        XCTAssertEqual(merged.status, 0, merged.stderr)
        let corpus = try XCTUnwrap(local["/corpus"]).path
        let single = try CLI.run(["kpi", corpus, "--aggregate", "--format", "json"], in: dir)
        XCTAssertEqual(single.status, 0, single.stderr)
        XCTAssertEqual(merged.stdout, single.stdout)
        XCTAssertTrue(single.stdout.contains(#""session":"generated/g12.jsonl""#), "names relative to the corpus")
    }
}
