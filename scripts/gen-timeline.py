#!/usr/bin/env python3
"""Generate a realistic avtreplay timeline for benchmarks.

usage: gen-timeline.py STEPS [--seed N] [--trackers K] [--format json|jsonl] > timeline
       gen-timeline.py STEPS --sessions N --out DIR [--format …]   (N files of STEPS steps,
       DIR/s00001.jsonl …, seeds 1…N: a corpus of small sessions in one process)

Playbacks on K content trackers one after another: request, load, initial buffering, start,
playhead updates, rebuffers, pauses, seeks with buffering, quality changes, errors and an end;
pings come from the engine. Odd-numbered trackers are AVPlayer trackers fed with player
observations (status, rate, timeControlStatus, presentationSize, …) instead of scripted actions,
so the AVPlayer logic and its 500 ms periodic observer are part of the measurement.
Deterministic for a given seed.
"""
import argparse, json, random, sys


def playback(rng, tracker, t):
    steps = []

    def add(dt, action=None, **kw):
        nonlocal t
        t += dt
        s = {"t": t, "tracker": tracker}
        if kw.get("set"):
            s["set"] = kw["set"]
        if action:
            s["action"] = action
        if kw.get("attributes"):
            s["attributes"] = kw["attributes"]
        steps.append(s)

    pos = 0
    add(0, "MediaRequest", set={"source": "https://example.com/v%d.m3u8" % rng.randrange(100), "duration": 600000})
    add(rng.randrange(50, 300), "StreamLoad")
    add(rng.randrange(5, 50), "BufferBegin")
    add(rng.randrange(300, 2000), "BufferFinish", set={"bitrate": 2500000, "resolutionWidth": 1280, "resolutionHeight": 720})
    add(rng.randrange(10, 100), "Start")
    for _ in range(rng.randrange(5, 25)):
        dt = rng.randrange(500, 8000)
        pos += dt
        r = rng.random()
        if r < 0.45:
            add(dt, None, set={"position": pos})
        elif r < 0.6:
            add(dt, "BufferBegin", set={"position": pos})
            add(rng.randrange(200, 3000), "BufferFinish")
        elif r < 0.75:
            add(dt, "PauseBegin", set={"position": pos})
            add(rng.randrange(500, 10000), "PauseFinish")
        elif r < 0.85:
            add(dt, "SeekBegin", set={"position": pos})
            add(rng.randrange(10, 100), "BufferBegin")
            pos += rng.randrange(-30000, 60000)
            add(rng.randrange(100, 1500), "SeekFinish", set={"position": max(pos, 0)})
            add(rng.randrange(10, 300), "BufferFinish")
        elif r < 0.97:
            up = rng.random() < 0.5
            add(dt, "QualityChangeUp" if up else "QualityChangeDown",
                set={"bitrate": 2500000 if up else 1200000, "resolutionHeight": 720 if up else 480})
        else:
            add(dt, "Error", attributes={"errorDescription": "Network timeout", "code": 1004})
    add(rng.randrange(500, 5000), rng.choice(["End", "End", "Stop"]), set={"position": pos})
    return steps, t


def avplayer_playback(rng, tracker, t):
    steps = []

    def add(dt, **observe):
        nonlocal t
        t += dt
        steps.append({"t": t, "tracker": tracker, "observe": observe})

    pos = 0
    add(0, source="https://example.com/v%d.m3u8" % rng.randrange(100), currentTime=0, duration=600000)
    add(rng.randrange(100, 400), status="readyToPlay", presentationSize={"width": 1280, "height": 720})
    add(rng.randrange(50, 400), observedBitrate=2500000, rate=1, timeControlStatus="playing")
    for _ in range(rng.randrange(5, 25)):
        dt = rng.randrange(500, 8000)
        pos += dt
        r = rng.random()
        if r < 0.4:
            add(dt, currentTime=pos)
        elif r < 0.6:
            add(dt, timeControlStatus="waitingToPlayAtSpecifiedRate", playbackBufferEmpty=True)
            add(rng.randrange(200, 3000), timeControlStatus="playing", playbackBufferEmpty=False)
        elif r < 0.8:
            add(dt, rate=0, timeControlStatus="paused")
            add(rng.randrange(500, 10000), rate=1, timeControlStatus="playing")
        else:
            h = rng.choice([360, 480, 720, 1080])
            add(dt, presentationSize={"width": h * 16 // 9, "height": h}, observedBitrate=h * 3500)
    add(rng.randrange(500, 5000), notification="didPlayToEndTime", rate=0, timeControlStatus="paused")
    return steps, t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("steps", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trackers", type=int, default=4)
    ap.add_argument("--format", choices=["json", "jsonl"], default="json")
    ap.add_argument("--sessions", type=int, default=0)
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.sessions:
        import os
        os.makedirs(args.out, exist_ok=True)
        for n in range(1, args.sessions + 1):
            with open(os.path.join(args.out, "s%05d.%s" % (n, args.format)), "w") as f:
                write(args.steps, n, args.trackers, args.format, f)
        return
    write(args.steps, args.seed, args.trackers, args.format, sys.stdout)


def write(count, seed, trackers, form, out):
    class Args:
        pass
    args = Args()
    args.steps, args.seed, args.trackers, args.format = count, seed, trackers, form
    rng = random.Random(args.seed)
    names = ["content%d" % i for i in range(args.trackers)]
    kinds = ["generic" if i % 2 == 0 else "avplayer" for i in range(args.trackers)]
    settings = {"startTime": "2026-03-01T12:00:00Z",
                "trackers": [{"name": n, "kind": k} for n, k in zip(names, kinds)]}
    jsonl = args.format == "jsonl"
    if jsonl:
        out.write(json.dumps(settings) + "\n")
    else:
        out.write(json.dumps(settings)[:-1] + ',\n"steps": [\n')
    written, t, first = 0, 0, True
    while written < args.steps:
        which = rng.randrange(len(names))
        make = avplayer_playback if kinds[which] == "avplayer" else playback
        steps, t = make(rng, names[which], t)
        for s in steps[: args.steps - written]:
            line = json.dumps(s, separators=(",", ":"))
            out.write(line + "\n" if jsonl else ("" if first else ",\n") + line)
            first = False
            written += 1
    if not jsonl:
        out.write("\n]}\n")


if __name__ == "__main__":
    main()
