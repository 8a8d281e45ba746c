#!/usr/bin/env python3
"""Compute the KPIs (and optionally the records) of a corpus on a Dask cluster.

usage: engine-dask.py CORPUS --out DIR [--tasks N] [--avtreplay BIN] [--scheduler ADDRESS]
                      [--workers W] [--records] [--definitions SET] [--keep-going] [--shared-out]
                      [--worker-timeout SECONDS]

Task K of N (K = 1 … N) runs, on whichever worker Dask gives it,

    avtreplay kpi CORPUS --shard K/N --format partial -o PART
    avtreplay run CORPUS --shard K/N -o RUN            (with --records)

and sends the file it wrote back to the driver, which writes DIR/part-K.jsonl (and
DIR/run-K.jsonl). The driver then runs

    avtreplay kpi --merge DIR/part-1.jsonl … DIR/part-N.jsonl --aggregate --format json

into DIR/kpi.json, what one `avtreplay kpi CORPUS --aggregate --format json` prints, byte for
byte, and concatenates the run shards in shard order into DIR/run.jsonl: every record of
`avtreplay run CORPUS` exactly once, each session's records whole and in their order (the
sessions grouped by shard, so in another order than one run's).

Without --scheduler, the script starts a LocalCluster of W worker processes (default 2) on
loopback and stops it at the end. With --scheduler tcp://HOST:8786 it submits to that cluster's
scheduler instead: every worker needs Python with `dask[distributed]`, avtreplay at the path
given by --avtreplay, and the corpus at the same absolute path (shared storage); the driver needs
avtreplay too, for the merge. --shared-out makes each task write its files straight into DIR
(which must then be on storage every worker and the driver see) instead of sending them back.

Outputs depend only on the corpus and the flags, not on the cluster, the number of workers or the
order the tasks end in. Exit codes: 0 ok; 1 a task or the merge failed (each failed shard is
named, with avtreplay's message); 2 usage (bad flags, no Dask, no corpus or binary); with
--keep-going, 2 also when inputs were left out (their messages are relayed), after writing
everything.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import uuid


def fail(message, status=2):
    print(f"engine-dask: {message}", file=sys.stderr)
    sys.exit(status)


def shard_task(command, binary, corpus, k, n, extra, out_path):
    """Runs on a worker: `avtreplay COMMAND CORPUS --shard K/N … -o FILE`.

    Returns (status, stderr, bytes of the file or None). With out_path, the file is written there
    (shared storage) and no bytes are returned; otherwise into a temporary folder on the worker,
    read back and deleted.
    """
    import os
    import subprocess
    import tempfile

    scratch = None
    target = out_path
    if target is None:
        scratch = tempfile.mkdtemp(prefix=f"avtreplay-{command}-{k}-of-{n}-")
        target = os.path.join(scratch, "out.jsonl")
    try:
        try:
            done = subprocess.run(
                [binary, command, corpus, "--shard", f"{k}/{n}"] + extra + ["-o", target],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as error:
            return (127, f"cannot run {binary}: {error}", None)
        data = None
        if out_path is None and os.path.exists(target):
            with open(target, "rb") as file:
                data = file.read()
        return (done.returncode, done.stderr.decode("utf-8", "replace"), data)
    finally:
        if scratch is not None:
            for name in os.listdir(scratch):
                os.remove(os.path.join(scratch, name))
            os.rmdir(scratch)


def main():
    parser = argparse.ArgumentParser(
        prog="engine-dask.py",
        description="Split a corpus into N avtreplay shards on a Dask cluster and merge them.")
    parser.add_argument("corpus", help="folder of timelines (the same absolute path on every worker)")
    parser.add_argument("--out", required=True, help="folder for part-K.jsonl, kpi.json, run-K.jsonl, run.jsonl")
    parser.add_argument("--tasks", type=int, default=4, help="N: shards, one task each (default 4)")
    parser.add_argument("--avtreplay", default="avtreplay", help="the avtreplay binary (default: on PATH)")
    parser.add_argument("--scheduler", help="a running scheduler, e.g. tcp://host:8786 (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the LocalCluster (default 2)")
    parser.add_argument("--records", action="store_true", help="also `avtreplay run` each shard (run.jsonl)")
    parser.add_argument("--definitions", help="the KPI definition set (passed to every kpi and the merge)")
    parser.add_argument("--keep-going", action="store_true", help="leave bad inputs out (avtreplay --keep-going)")
    parser.add_argument("--shared-out", action="store_true", help="tasks write into --out directly (shared storage)")
    parser.add_argument(
        "--worker-timeout", type=float, default=300,
        help="seconds to wait for the first worker to join the scheduler (default 300)")
    args = parser.parse_args()

    if args.tasks < 1:
        fail(f"--tasks must be at least 1, not {args.tasks}")
    if args.workers < 1:
        fail(f"--workers must be at least 1, not {args.workers}")
    binary = shutil.which(args.avtreplay)
    if binary is None:
        fail(f"no avtreplay binary at {args.avtreplay!r} (give --avtreplay PATH)")
    binary = os.path.abspath(binary)
    corpus = os.path.abspath(args.corpus)
    # Without a scheduler the workers are this machine, so the corpus must be here; on a real
    # cluster it need only be on the workers' shared storage.
    if args.scheduler is None and not os.path.isdir(corpus):
        fail(f"no corpus folder at {args.corpus}")
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as error:
        fail(f"needs Dask distributed ({error}): python3 -m pip install 'dask[distributed]'")

    out = os.path.abspath(args.out)
    try:
        os.makedirs(out, exist_ok=True)
        # A previous run's results must not pass for this one's if this one fails.
        stale = ["kpi.json", "run.jsonl"] + [
            f"{stem}-{k}.jsonl" for stem in ["part", "run"] for k in range(1, args.tasks + 1)]
        for name in stale:
            if os.path.exists(os.path.join(out, name)):
                os.remove(os.path.join(out, name))
    except OSError as error:
        fail(f"cannot use {args.out} as the output folder: {error}")
    n = args.tasks
    definitions = ["--definitions", args.definitions] if args.definitions else []
    keep_going = ["--keep-going"] if args.keep_going else []
    commands = [("kpi", "part", ["--format", "partial"] + definitions + keep_going)]
    if args.records:
        commands.append(("run", "run", keep_going))

    cluster = None
    if args.scheduler is None:
        # Worker processes (not threads) over loopback, one thread each: each task is an
        # avtreplay process, so W workers run W shards at once.
        try:
            cluster = LocalCluster(
                n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None)
        except Exception as error:
            fail(f"cannot start a LocalCluster of {args.workers} workers: {type(error).__name__}: {error}", 1)
        client = Client(cluster)
    else:
        try:
            client = Client(args.scheduler, timeout="30s")
        except (OSError, TimeoutError) as error:
            fail(f"cannot reach the scheduler {args.scheduler}: {error}")

    failures = []
    left_out = False
    try:
        # Tasks would wait forever on a scheduler no worker has joined.
        try:
            client.wait_for_workers(1, timeout=args.worker_timeout)
        except (TimeoutError, OSError) as error:
            fail(f"no worker joined the scheduler within {args.worker_timeout:g} s: {error}", 1)
        futures = []
        # Keys name the task in the scheduler's logs and dashboard; the run's own token keeps two
        # drivers on one scheduler from sharing results.
        token = uuid.uuid4().hex[:12]
        for command, stem, extra in commands:
            for k in range(1, n + 1):
                path = os.path.join(out, f"{stem}-{k}.jsonl")
                future = client.submit(
                    shard_task, command, binary, corpus, k, n, extra, path if args.shared_out else None,
                    key=f"avtreplay-{command}-{k}-of-{n}-{token}", pure=False, retries=0)
                futures.append((command, stem, k, path, future))
        # Collected in shard order, whatever order they end in.
        for command, stem, k, path, future in futures:
            try:
                status, stderr, data = future.result()
            except Exception as error:  # a worker lost, a task that could not be sent
                failures.append(f"{command} shard {k}/{n} failed: {type(error).__name__}: {error}")
                continue
            for line in stderr.splitlines():
                print(f"engine-dask: {command} shard {k}/{n}: {line}", file=sys.stderr)
            # With --keep-going, exit 2 with the file written means inputs were left out (said above).
            written = os.path.exists(path) if args.shared_out else data is not None
            if status == 0 and not written:
                failures.append(f"{command} shard {k}/{n} failed: avtreplay {command} wrote no file")
                continue
            if status == 2 and args.keep_going and written:
                left_out = True
            elif status != 0:
                last = stderr.strip().splitlines()[-1] if stderr.strip() else "no message"
                failures.append(f"{command} shard {k}/{n} failed: avtreplay {command} exited {status}: {last}")
                continue
            if not args.shared_out:
                with open(path, "wb") as file:
                    file.write(data)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    if failures:
        for failure in failures:
            print(f"engine-dask: {failure}", file=sys.stderr)
        fail(f"{len(failures)} of {len(futures)} tasks failed; nothing merged", status=1)

    parts = [os.path.join(out, f"part-{k}.jsonl") for k in range(1, n + 1)]
    with open(os.path.join(out, "kpi.json.tmp"), "wb") as merged:
        done = subprocess.run(
            [binary, "kpi", "--merge"] + parts + definitions + ["--aggregate", "--format", "json"],
            stdin=subprocess.DEVNULL, stdout=merged, stderr=subprocess.PIPE)
    if done.returncode != 0:
        os.remove(os.path.join(out, "kpi.json.tmp"))
        sys.stderr.write(done.stderr.decode("utf-8", "replace"))
        fail(f"avtreplay kpi --merge exited {done.returncode}", status=1)
    os.replace(os.path.join(out, "kpi.json.tmp"), os.path.join(out, "kpi.json"))

    if args.records:
        with open(os.path.join(out, "run.jsonl.tmp"), "wb") as joined:
            for k in range(1, n + 1):
                with open(os.path.join(out, f"run-{k}.jsonl"), "rb") as shard:
                    shutil.copyfileobj(shard, joined)
        os.replace(os.path.join(out, "run.jsonl.tmp"), os.path.join(out, "run.jsonl"))

    written = "kpi.json" + (" and run.jsonl" if args.records else "")
    print(f"engine-dask: {n} shards merged into {written} in {out}", file=sys.stderr)
    if left_out:
        fail("some inputs were bad and left out (--keep-going; said above)", status=2)


if __name__ == "__main__":
    main()
