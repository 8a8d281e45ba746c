#!/usr/bin/env python3
"""Generates a large player log for scripts/bench: one long session, in a real log's proportions.

usage: gen-player-log.py exoplayer|chrome|accesslog MEGABYTES > FILE

exoplayer: logcat -v threadtime EventLogger lines (states, isPlaying, formats, loading, dropped
frames) with a line of another tag between them, eventTime growing. chrome: a saved
media-internals log of one player, buffering states as objects, a few entries out of order.
accesslog: AVPlayer access-log dumps as an app prints them, collected from many sessions: each
session (cs-guid) has 20 events on three variants, dumped after every fifth event, each dump
repeating the whole log so far.
"""
import sys

kind, megabytes = sys.argv[1], int(sys.argv[2])
target = megabytes * 1_000_000
out = sys.stdout
size = 0


def write(text):
    global size
    out.write(text)
    size += len(text)


if kind == "exoplayer":
    head = "03-14 10:21:47.041 19692 19692 D EventLogger: "
    write("03-14 10:21:46.990 19692 19692 I ExoPlayerImpl: Init 7c8e2f1 [AndroidXMedia3/1.8.0] [emu64a, sdk, Google, 34]\n")
    write(head + "state [eventTime=0.06, mediaPos=0.00, window=0, BUFFERING]\n")
    write(head + "playWhenReady [eventTime=0.07, mediaPos=0.00, window=0, true, USER_REQUEST]\n")
    t = 1.0
    while size < target:
        p = t - 1
        write(
            head + "state [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, READY]\n" % (t, p)
            + head + "isPlaying [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, true]\n" % (t, p)
            + "03-14 10:21:47.120 19692 19692 I ActivityTaskManager: Displayed com.example/.PlayerActivity: +412ms\n"
            + head + "downstreamFormat [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, id=1, mimeType=video/avc, "
            "bitrate=2000000, codecs=avc1.64001F, res=1280x720, fps=30.0]\n" % (t + 1, p + 1)
            + head + "loading [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, false]\n" % (t + 1, p + 1)
            + head + "droppedFrames [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, 3]\n" % (t + 2, p + 2)
            + head + "state [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, BUFFERING]\n" % (t + 3, p + 3)
            + head + "isPlaying [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, false]\n" % (t + 3, p + 3))
        t += 3.5
elif kind == "chrome":
    write('[{"properties": {"url": "https://example.com/v.mp4"}, "events": [\n')
    write('{"time": 0, "key": "event", "value": "kLoad"},\n{"time": 10, "key": "event", "value": "kPlay"}')
    t = 100.0
    while size < target:
        write(
            ',\n{"time": %.3f, "key": "pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH", '
            '"reason": "", "for_suspended_start": false}}' % t
            + ',\n{"time": %.3f, "key": "info", "value": "Selected video decoder: VDAVideoDecoder"}' % (t + 2)
            + ',\n{"time": %.3f, "key": "pipeline_state", "value": "kPlaying"}' % (t + 1)
            + ',\n{"time": %.3f, "key": "pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_NOTHING", '
            '"reason": "DEMUXER_UNDERFLOW", "for_suspended_start": false}}' % (t + 3000))
        t += 3500
    write("\n]}]\n")
elif kind == "accesslog":
    header = (
        "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22A3354 (iPhone; U; CPU OS 18_0 like Mac OS X; en_us)\n"
        "#Date: 2025/11/03 20:14:50.050\n#Fields: date time uri cs-guid s-ip s-ip-changes sc-count "
        "c-duration-downloaded c-start-time c-duration-watched bytes c-observed-bitrate sc-indicated-bitrate "
        "c-stalls c-frames-dropped c-startup-time c-overdue c-reason c-observed-min-bitrate "
        "c-observed-max-bitrate c-observed-bitrate-sd s-playback-type sc-wwan-count c-switch-bitrate\n")
    session = 0
    while size < target:
        session += 1
        guid = "%08X-1B9E-4C8A-9E61-%012X" % (session, session)
        rows = []
        for i in range(20):
            height = (360, 720, 1080)[(session * 7 + i * i) % 3]
            rows.append(
                "2025/11/03 20:%02d:%02d.0%02d https://media.example.com/show/v%d/prog.m3u8 %s 203.0.113.7 0 8 "
                "36.000 %d.000 30.250 11250000 6000000.000 %d %d 4 1.500 0 2 - - 120000.000 VOD 0 -\n"
                % (14 + i // 2, (i % 2) * 30, (i % 2) * 30, height, guid, i * 30, height * 3000, i % 2))
            if i % 5 == 4:
                write(header + "".join(rows))
else:
    sys.exit("usage: gen-player-log.py exoplayer|chrome|accesslog MEGABYTES")
