#!/usr/bin/env bash
# Start a throw-away Prometheus (Debian 12 package `prometheus` 2.42) on loopback, with the
# remote-write receiver on and an out-of-order window wide enough for a replay.
#
#   apt-get install -y prometheus curl
#   eval "$(./start-prometheus.sh)"   # sets PROMETHEUS_PID, PROMETHEUS_DIR, PROMETHEUS_PORT, PROMETHEUS_URL
#   avtreplay run fixtures/happy-path.json --to prometheus://127.0.0.1:$PROMETHEUS_PORT --start-time now
#   curl -s "$PROMETHEUS_URL/api/v1/query" --data-urlencode 'query=count_over_time(oavt_events_total[1h])'
#   ./stop-server.sh "$PROMETHEUS_PID" 10 "$PROMETHEUS_DIR"   # stop by PID; rm -rf "$PROMETHEUS_DIR" afterwards
#
# Behaviour worth knowing (observed with 2.42):
#  * A remote-write request with one sample Prometheus will not store (older than its head
#    allows, or a second value for a stored timestamp) is refused whole with a 400 and nothing
#    of it is written. Its head allows samples down to an hour before the newest sample it
#    holds, or down to the out-of-order window when that is longer.
#  * The server scrapes itself (every PROMETHEUS_SCRAPE_INTERVAL), so its newest sample is
#    about now, as on a live server.
#
# Env knobs: PROMETHEUS_PORT (default 9090), PROMETHEUS_DIR (default: new mktemp dir),
#            PROMETHEUS_OOO_WINDOW (storage.tsdb.out_of_order_time_window, default 1d),
#            PROMETHEUS_SCRAPE_INTERVAL (default 15s), PROMETHEUS_TIMEOUT (seconds to wait for
#            /-/ready, default 30).
# No systemd; the server runs as the calling user with all state in PROMETHEUS_DIR. Fails
# (exit 1, server stopped) if the port is already taken, so a stale server on the same port can
# never be mistaken for this one.
set -euo pipefail
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

PORT="${PROMETHEUS_PORT:-9090}"
TIMEOUT="${PROMETHEUS_TIMEOUT:-30}"
OOO="${PROMETHEUS_OOO_WINDOW:-1d}"
SCRAPE="${PROMETHEUS_SCRAPE_INTERVAL:-15s}"

if port_in_use "$PORT"; then
  echo "127.0.0.1:$PORT is already in use (another prometheus?); set PROMETHEUS_PORT to a free port" >&2
  exit 1
fi

DIR="${PROMETHEUS_DIR:-$(mktemp -d /tmp/prometheus.XXXXXX)}"
mkdir -p "$DIR/data"

cat > "$DIR/prometheus.yml" <<CONF
global:
  scrape_interval: ${SCRAPE}
scrape_configs:
  - job_name: prometheus
    static_configs:
      - targets: ["127.0.0.1:${PORT}"]
storage:
  tsdb:
    out_of_order_time_window: ${OOO}
CONF

PID=
ready=0
trap server_cleanup EXIT
trap 'exit 130' INT TERM

START_NS=$(date +%s%N)
start_detached "$DIR/prometheus.log" /usr/bin/prometheus --config.file="$DIR/prometheus.yml" \
  --storage.tsdb.path="$DIR/data" --web.listen-address="127.0.0.1:${PORT}" \
  --web.enable-remote-write-receiver --storage.tsdb.retention.time=30d
echo "$PID" > "$DIR/prometheus.pid"

prometheus_ready() { [ "$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:${PORT}/-/ready" || true)" = 200 ]; }
wait_ready prometheus "$DIR/prometheus.log" "$TIMEOUT" "$PORT" prometheus_ready
ELAPSED_MS=$(( ($(date +%s%N) - START_NS) / 1000000 ))

ready=1
echo "# prometheus (pid $PID) ready in ${ELAPSED_MS} ms" >&2
echo "PROMETHEUS_PID=$PID"
echo "PROMETHEUS_DIR=$DIR"
echo "PROMETHEUS_PORT=$PORT"
echo "PROMETHEUS_URL=http://127.0.0.1:${PORT}"
