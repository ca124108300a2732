#!/usr/bin/env bash
# Soak: wrk at SOAK_CONNECTIONS connections on session pages (real state, committed to SQLite)
# and icons, while SOAK_IDLE half-open connections (a partial request, then silence) are held
# against the same server, and a probe times /healthz and a page once a second.
# Checks: no failed request, the probe stays fast, idle connections are timed out, memory flat.
# Usage: make soak   (env: SOAK_SECONDS=180 SOAK_CONNECTIONS=200 SOAK_IDLE=200 SOAK_TIMEOUT=10)
set -euo pipefail
cd "$(dirname "$0")/.."

SOAK_SECONDS=${SOAK_SECONDS:-180}
# A shorter run still needs the idle connections to time out a few times over.
if [ "$SOAK_SECONDS" -lt 30 ]; then SOAK_SECONDS=30; fi
CONNECTIONS=${SOAK_CONNECTIONS:-200}
IDLE=${SOAK_IDLE:-200}
TIMEOUT=${SOAK_TIMEOUT:-10}
# Everything here comes from 127.0.0.1: the per-IP limit must hold wrk, the idle sockets and the
# probe, with room to spare; what defends the server is the timeout closing the idle ones.
PER_IP=$((CONNECTIONS + IDLE + 50))
BIN=.build/release/tabstage

for tool in wrk python3; do
    command -v "$tool" >/dev/null || { echo "soak: '$tool' is missing (apt-get install wrk python3)" >&2; exit 1; }
done
[ -x "$BIN" ] || swift build -c release --product tabstage

WORK=$(mktemp -d /tmp/tabstage-soak.XXXXXX)
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ulimit -n 4096 2>/dev/null || true
"$BIN" serve --quiet --host 127.0.0.1 --port "$PORT" --public Public --sessions "sqlite:$WORK/sessions.sqlite" \
    --max-connections-per-ip "$PER_IP" --connection-timeout "$TIMEOUT" 2>"$WORK/server.log" &
SERVER_PID=$!

python3 bench/soak.py --port "$PORT" --pid "$SERVER_PID" --seconds "$SOAK_SECONDS" \
    --connections "$CONNECTIONS" --idle "$IDLE" --timeout "$TIMEOUT" --work "$WORK"
