#!/usr/bin/env python3
"""Generates a large player log for scripts/bench, shaped like the logs users paste.

usage: gen-player-log.py exoplayer|chrome|accesslog MEGABYTES [--clean] > FILE

The output is deterministic (a fixed seed). Without --clean it mixes in what real logs hold
besides the player's own lines:

exoplayer: logcat -v threadtime, several players one after another (ExoPlayerImpl Init and
Release lines, eventTime starting again), each with states, isPlaying, formats, loading,
dropped frames, a timeline block, a non-fatal load error with its throwable inside the brackets;
between them lines of other tags and processes, stack traces (System.err), and now and then a
line cut short by logcat (no end, the next line glued on).
chrome: a saved media-internals log of several players (one never loads media), buffering
states as objects, info/debug/duration entries, a few entries out of order.
accesslog: AVPlayer access-log dumps as an app prints them, interleaved from many sessions, each
session (cs-guid) 20 events on three variants dumped after every fifth event, each dump
repeating the whole log so far; error-log dumps, app lines (NSLog prefixes) between dumps, and
now and then a row cut short.
--clean leaves the noise out (the player's lines only).
"""
import random
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
if len(args) != 2 or args[0] not in ("exoplayer", "chrome", "accesslog"):
    sys.exit("usage: gen-player-log.py exoplayer|chrome|accesslog MEGABYTES [--clean]")
kind, megabytes = args[0], int(args[1])
noisy = "--clean" not in sys.argv
rng = random.Random(20261127)
target = megabytes * 1_000_000
out = sys.stdout
size = 0


def write(text):
    global size
    out.write(text)
    size += len(text)


def exoplayer():
    clock = [10 * 3600 * 1000 + 21 * 60 * 1000]  # logcat time of day, ms

    def stamp():
        ms = clock[0]
        return "03-14 %02d:%02d:%02d.%03d" % (ms // 3600000 % 24, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)

    def log(level, tag, message, pid=19692):
        write("%s %5d %5d %s %s: %s\n" % (stamp(), pid, pid, level, tag, message))

    def noise():
        if not noisy:
            return
        roll = rng.random()
        if roll < 0.5:
            log("I", "ActivityTaskManager", "Displayed com.example/.PlayerActivity: +412ms", pid=1342)
        elif roll < 0.7:
            log("D", "OkHttp", "<-- 200 https://cdn.example.com/v/seg-%d.ts (84ms, 1048576-byte body)" % rng.randrange(99999))
        elif roll < 0.8:
            log("W", "System.err", "java.io.IOException: unexpected end of stream on https://cdn.example.com/...")
            for frame in ("okhttp3.internal.http1.Http1ExchangeCodec.readResponseHeaders(Http1ExchangeCodec.kt:202)",
                          "okhttp3.internal.connection.Exchange.readResponseHeaders(Exchange.kt:106)",
                          "java.lang.Thread.run(Thread.java:1012)"):
                log("W", "System.err", "\tat " + frame)
        elif roll < 0.9:
            # logcat drops the end of a line under load: the next one is glued on.
            write("%s 19692 19692 D EventLogger: loading [eventTime=" % stamp())
        else:
            log("V", "AudioTrack", "getTimestamp_l(17): device stall time corrected using current time %d" % rng.randrange(10**9))

    player = 0
    while size < target:
        player += 1
        log("I", "ExoPlayerImpl", "Init %07x [AndroidXMedia3/1.4.1] [emu64a, sdk, Google, 34]" % player)
        log("D", "EventLogger", "mediaItem [eventTime=0.01, mediaPos=0.00, window=0, reason=PLAYLIST_CHANGED]")
        log("D", "EventLogger", "playWhenReady [eventTime=0.02, mediaPos=0.00, window=0, true, USER_REQUEST]")
        log("D", "EventLogger", "state [eventTime=0.05, mediaPos=0.00, window=0, BUFFERING]")
        log("D", "EventLogger", "timeline [eventTime=0.31, mediaPos=0.00, window=0, period=0, periodCount=1, windowCount=1, reason=SOURCE_UPDATE")
        log("D", "EventLogger", "  period [600.00]")
        log("D", "EventLogger", "  window [600.00, seekable=true, dynamic=false]")
        log("D", "EventLogger", "]")
        t = 1.0
        # Players of a few MB each, so the log holds a few dozen sessions.
        end = size + 3_000_000
        while size < min(end, target):
            p = t - 1
            clock[0] += 3500
            head = "eventTime=%.2f, mediaPos=%.2f, window=0, period=0" % (t, p)
            log("D", "EventLogger", "state [%s, READY]" % head)
            log("D", "EventLogger", "isPlaying [%s, true]" % head)
            noise()
            log("D", "EventLogger", "downstreamFormat [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, id=1, "
                "mimeType=video/avc, bitrate=%d, codecs=avc1.64001F, res=1280x720, fps=30.0]"
                % (t + 1, p + 1, rng.choice((800000, 2000000, 4000000))))
            log("D", "EventLogger", "loading [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, false]" % (t + 1, p + 1))
            log("D", "EventLogger", "droppedFrames [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, 3]" % (t + 2, p + 2))
            if noisy and rng.random() < 0.02:
                log("E", "EventLogger", "internalError [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, loadError" % (t + 2, p + 2))
                log("E", "EventLogger", "  androidx.media3.datasource.HttpDataSource$InvalidResponseCodeException: Response code: 503")
                log("E", "EventLogger", "      at androidx.media3.datasource.DefaultHttpDataSource.open(DefaultHttpDataSource.java:413)")
                log("E", "EventLogger", "]")
            log("D", "EventLogger", "state [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, BUFFERING]" % (t + 3, p + 3))
            log("D", "EventLogger", "isPlaying [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, false]" % (t + 3, p + 3))
            noise()
            t += 3.5
        log("D", "EventLogger", "state [eventTime=%.2f, mediaPos=%.2f, window=0, period=0, ENDED]" % (t, t - 1))
        log("I", "ExoPlayerImpl", "Release %07x [AndroidXMedia3/1.4.1] [emu64a, sdk, Google, 34] [media3.common, media3.exoplayer]" % player)


def chrome():
    write("[")
    player = 0
    while size < target:
        player += 1
        if player > 1:
            write(",\n")
        if noisy and player % 4 == 2:
            # A player the page created that never loaded media.
            write('{"properties": {"render_id": 12, "player_id": %d}, "events": [\n'
                  '{"time": 0, "key": "event", "value": "kWebMediaPlayerCreated"}]}' % player)
            continue
        write('{"properties": {"url": "https://example.com/v%d.m3u8", "pipeline_state": "kPlaying"}, "events": [\n' % player)
        write('{"time": 0, "key": "event", "value": "kLoad"},\n{"time": 10, "key": "event", "value": "kPlay"}')
        t = 100.0
        end = size + 5_000_000
        while size < min(end, target):
            entries = [
                (t, '"pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH", "reason": "", "for_suspended_start": false}'),
                (t + 1, '"pipeline_state", "value": "kPlaying"'),
                (t + 2, '"info", "value": "Selected video decoder: VDAVideoDecoder"'),
                (t + 3000, '"pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_NOTHING", "reason": "DEMUXER_UNDERFLOW", "for_suspended_start": false}'),
            ]
            if noisy:
                entries.append((t + 5, '"duration", "value": %.6f' % (t / 1000 + 600)))
                entries.append((t + 6, '"debug", "value": "Video rendering in low delay mode."'))
                entries.append((t + 7, '"video_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH"}'))
                if rng.random() < 0.1:
                    # Arrival order is not time order.
                    entries[1], entries[2] = entries[2], entries[1]
            for time, rest in entries:
                write(',\n{"time": %.3f, "key": %s}' % (time, rest))
            t += 3500
        write('\n]}')
    write("\n]\n")


def accesslog():
    fields = ("#Fields: date time uri cs-guid s-ip s-ip-changes sc-count c-duration-downloaded c-start-time "
              "c-duration-watched bytes c-observed-bitrate sc-indicated-bitrate c-stalls c-frames-dropped "
              "c-startup-time c-overdue c-reason c-observed-min-bitrate c-observed-max-bitrate "
              "c-observed-bitrate-sd s-playback-type sc-wwan-count c-switch-bitrate\n")
    header = ("#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22A3354 (iPhone; U; CPU OS 18_0 like Mac OS X; en_us)\n"
              "#Date: 2025/11/03 20:14:50.050\n" + fields)
    live = []  # sessions being played at once: [guid, rows so far, session number]
    session = 0
    while size < target:
        while len(live) < 4:
            session += 1
            live.append(["%08X-1B9E-4C8A-9E61-%012X" % (session, session), [], session])
        entry = live[rng.randrange(len(live))] if noisy else live[0]
        guid, rows, number = entry
        i = len(rows)
        height = (360, 720, 1080)[(number * 7 + i * i) % 3]
        rows.append(
            "2025/11/03 20:%02d:%02d.0%02d https://media.example.com/show/v%d/prog.m3u8 %s 203.0.113.7 0 8 "
            "36.000 %d.000 30.250 11250000 6000000.000 %d %d 4 1.500 0 2 - - 120000.000 VOD 0 -\n"
            % (14 + i // 2, (i % 2) * 30, (i % 2) * 30, height, guid, i * 30, height * 3000, i % 2))
        if i % 5 == 4:
            if noisy:
                write("2025-11-03 20:%02d:%02d.123456+0100 Player[4242:1893321] [Playback] access log for item %d:\n"
                      % (14 + i // 2, (i % 2) * 30, number))
            dump = header + "".join(rows)
            if noisy and rng.random() < 0.03:
                dump = dump[: len(dump) - rng.randrange(20, 120)] + "\n"  # a row cut short
            write(dump)
            if noisy and rng.random() < 0.05:
                write("#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22A3354\n#Date: 2025/11/03 20:15:00.000\n"
                      "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n"
                      '2025/11/03 20:15:00.000 https://media.example.com/show/v720/seg9.ts %s 203.0.113.7 -12938 '
                      '"CoreMediaErrorDomain" "HTTP 503: Service Unavailable" -\n' % guid)
        if len(rows) == 20:
            live.remove(entry)


{"exoplayer": exoplayer, "chrome": chrome, "accesslog": accesslog}[kind]()
