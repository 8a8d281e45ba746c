#!/usr/bin/env bash
# Start a throw-away single-node VictoriaMetrics (Debian 12 package `victoria-metrics` 1.79) on
# loopback. It takes Prometheus remote write at /api/v1/write and InfluxDB line protocol at
# /write and /api/v2/write, on one port.
#
#   apt-get install -y victoria-metrics curl
#   eval "$(./start-victoriametrics.sh)"   # sets VICTORIA_PID, VICTORIA_DIR, VICTORIA_PORT, VICTORIA_URL
#   avtreplay run fixtures/happy-path.json --to prometheus://127.0.0.1:$VICTORIA_PORT/api/v1/write --start-time now
#   curl -s "$VICTORIA_URL/internal/force_flush"    # make what was written searchable now
#   curl -s "$VICTORIA_URL/api/v1/export" -d 'match[]={__name__=~"oavt_.*"}'
#   ./stop-server.sh "$VICTORIA_PID" 10 "$VICTORIA_DIR"   # stop by PID; rm -rf "$VICTORIA_DIR" afterwards
#
# Behaviour worth knowing (observed with 1.79):
#  * Samples older than -retentionPeriod or more than two days ahead are dropped without an
#    error: the request still answers 204.
#  * Written samples become searchable within about a second; /internal/force_flush makes it
#    immediate.
#
# Env knobs: VICTORIA_PORT (default 8428), VICTORIA_DIR (default: new mktemp dir),
#            VICTORIA_RETENTION (-retentionPeriod, default 1, a month), VICTORIA_TIMEOUT (seconds
#            to wait for /health, default 30).
# No systemd; the server runs as the calling user with all state in VICTORIA_DIR. Fails (exit
# 1, server stopped) if the port is already taken.
set -euo pipefail
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

PORT="${VICTORIA_PORT:-8428}"
TIMEOUT="${VICTORIA_TIMEOUT:-30}"
RETENTION="${VICTORIA_RETENTION:-1}"

if port_in_use "$PORT"; then
  echo "127.0.0.1:$PORT is already in use (another victoria-metrics?); set VICTORIA_PORT to a free port" >&2
  exit 1
fi

DIR="${VICTORIA_DIR:-$(mktemp -d /tmp/victoriametrics.XXXXXX)}"
mkdir -p "$DIR/data"

PID=
ready=0
trap server_cleanup EXIT
trap 'exit 130' INT TERM

START_NS=$(date +%s%N)
start_detached "$DIR/victoria-metrics.log" /usr/bin/victoria-metrics -storageDataPath="$DIR/data" \
  -httpListenAddr="127.0.0.1:${PORT}" -retentionPeriod="$RETENTION" -selfScrapeInterval=0
echo "$PID" > "$DIR/victoria-metrics.pid"

victoria_ready() { [ "$(curl -s --max-time 2 "http://127.0.0.1:${PORT}/health" || true)" = OK ]; }
wait_ready victoria-metrics "$DIR/victoria-metrics.log" "$TIMEOUT" "$PORT" victoria_ready
ELAPSED_MS=$(( ($(date +%s%N) - START_NS) / 1000000 ))

ready=1
echo "# victoria-metrics (pid $PID) ready in ${ELAPSED_MS} ms" >&2
echo "VICTORIA_PID=$PID"
echo "VICTORIA_DIR=$DIR"
echo "VICTORIA_PORT=$PORT"
echo "VICTORIA_URL=http://127.0.0.1:${PORT}"
