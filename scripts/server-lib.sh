# Shared by start-influxdb.sh and start-carbon.sh: start a throw-away server detached, wait for
# it, and make sure the port answering is the server we started. Source it; it defines
# functions only. Each script sets PID, ready=0 and traps server_cleanup before starting.

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# If anything fails (or the script is interrupted) before the server is handed over, stop the
# server we started -- by its PID only.
server_cleanup() {
  if [ "${ready:-0}" != 1 ] && [ -n "${PID:-}" ] && kill -0 "$PID" 2>/dev/null; then
    kill -TERM "$PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$PID" 2>/dev/null || true
  fi
}

# start_detached LOG COMMAND...: runs COMMAND fully detached and sets PID. Its own session,
# stdin from /dev/null, output to LOG, and no descriptor above 2 inherited from whoever ran the
# script (a test runner's pipe held open by the server would keep the runner waiting for an end
# of file that never comes).
start_detached() {
  local log=$1
  shift
  (
    for fd in /proc/self/fd/*; do
      n=${fd##*/}
      if [ "$n" -gt 2 ]; then eval "exec $n>&-" 2>/dev/null || true; fi
    done
    exec setsid "$@" </dev/null >"$log" 2>&1
  ) &
  PID=$!
}

# wait_ready NAME LOG TIMEOUT PORT CHECK...: polls CHECK until it succeeds, the server exits or
# TIMEOUT seconds pass; then checks that PORT is still ours. Exits 1 (the trap stops the server)
# on failure.
wait_ready() {
  local name=$1 log=$2 timeout=$3 port=$4 up=0 deadline
  shift 4
  deadline=$(( $(date +%s) + timeout ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    if ! kill -0 "$PID" 2>/dev/null; then
      echo "$name (pid $PID) exited early; its output ($log) follows:" >&2
      tail -n 30 "$log" >&2 2>/dev/null || true
      exit 1
    fi
    if "$@"; then up=1; break; fi
    sleep 0.05
  done
  if [ "$up" != 1 ]; then
    echo "$name (pid $PID) not ready after ${timeout}s; stopping it. Output: $log" >&2
    exit 1
  fi
  # The answer must have come from our process (not from a server that grabbed the port meanwhile).
  if ! kill -0 "$PID" 2>/dev/null; then
    echo "$name (pid $PID) died right after it answered; its output follows:" >&2
    tail -n 30 "$log" >&2 2>/dev/null || true
    exit 1
  fi
  if command -v ss >/dev/null 2>&1 && ! ss -Hltnp "sport = :${port}" | grep -q "pid=${PID},"; then
    echo "127.0.0.1:${port} is not owned by $name pid $PID; stopping it" >&2
    exit 1
  fi
}
