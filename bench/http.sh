#!/usr/bin/env bash
# HTTP bench: TabStage (release) against nginx serving the same bytes as static files.
# Usage: bench/http.sh   (env: RUNS=3 DURATION=5s CONNECTIONS="64 16" THREADING=pool|pool-no-turbo|per-connection
#                         BIN=path/to/tabstage to compare builds)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-"64 16"}
BIN=${BIN:-.build/release/tabstage}
NGINX=${NGINX:-/usr/sbin/nginx}

for tool in wrk python3 "$NGINX"; do
    command -v "$tool" >/dev/null || { echo "bench: '$tool' is missing (apt-get install wrk nginx-light)" >&2; exit 1; }
done
[ -x "$BIN" ] || swift build -c release --product tabstage

WORK=$(mktemp -d /tmp/tabstage-bench.XXXXXX)
chmod 755 "$WORK"  # nginx workers may run as another user when started by root
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() {
    for _ in $(seq 1 100); do
        python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "bench: $1 did not come up" >&2; exit 1
}

TS_PORT=$(free_port)
TABSTAGE_THREADING="${THREADING:-pool}" "$BIN" serve --quiet --host 127.0.0.1 --port "$TS_PORT" --public Public 2>"$WORK/tabstage.log" &
TS_PID=$!
PIDS+=($TS_PID)
wait_for "http://127.0.0.1:$TS_PORT/healthz"

# nginx serves the very bytes TabStage answers: the dynamic page saved as a file, and the static file.
mkdir -p "$WORK/root/static/css" "$WORK/nginx"
python3 -c "import urllib.request,sys; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read())" \
    "http://127.0.0.1:$TS_PORT/" >"$WORK/root/index.html"
cp Public/css/tabstage.css "$WORK/root/static/css/tabstage.css"
NG_PORT=$(free_port)
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { text/html html; text/css css; }
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$NG_PORT;
        root $WORK/root;
        location = / { try_files /index.html =404; }
    }
}
CONF
"$NGINX" -p "$WORK/nginx" -e "$WORK/nginx/error.log" -c "$WORK/nginx/nginx.conf" &
PIDS+=($!)
wait_for "http://127.0.0.1:$NG_PORT/static/css/tabstage.css"

# CPU time (user + system, clock ticks) used so far by the given processes and their threads.
cpu_ticks() {
    local total=0 pid
    for pid in "$@"; do
        # Fields 14 and 15 of /proc/PID/stat, counted after the ")" that ends the command name.
        total=$((total + $(sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')))
    done
    echo "$total"
}
TICKS_PER_SECOND=$(getconf CLK_TCK)
NG_PIDS=("$(cat "$WORK/nginx/nginx.pid")")
mapfile -t -O 1 NG_PIDS < <(pgrep -P "${NG_PIDS[0]}")

# One wrk run -> "requests/s p50_ms p99_ms server_cpu_us_per_request". The server's CPU per
# request is steadier than requests/s on a shared machine (wrk and the neighbours take turns).
measure() {
    local conns=$1 url=$2 before after
    shift 2
    before=$(cpu_ticks "$@")
    wrk -t2 -c"$conns" -d"$DURATION" --latency "$url" >"$WORK/wrk.out"
    after=$(cpu_ticks "$@")
    awk -v ticks=$((after - before)) -v hz="$TICKS_PER_SECOND" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        / requests in / { requests = $1 }
        /Requests\/sec/ { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        END { printf "%.0f %.3f %.3f %.2f\n", rps, p50, p99, requests ? ticks * 1e6 / hz / requests : 0 }' "$WORK/wrk.out"
}
# Median of RUNS runs, each field on its own; TabStage and nginx alternate run by run.
# -> "ts_rps ts_p50 ts_p99 ts_cpu ng_rps ng_p50 ng_p99 ng_cpu"
interleaved_medians() {
    for _ in $(seq 1 "$RUNS"); do
        echo "$(measure "$1" "$2" "$TS_PID") $(measure "$1" "$3" "${NG_PIDS[@]}")"
    done | python3 -c '
import sys, statistics
rows = [list(map(float, line.split())) for line in sys.stdin if line.strip()]
print(" ".join(f"{statistics.median(col):g}" for col in zip(*rows)))'
}

echo "TabStage vs nginx, wrk -t2 -d$DURATION, median of $RUNS interleaved runs, threading=${THREADING:-pool}"
echo "(cpu: server CPU microseconds per request, user + system)"
printf "%-6s %-8s %10s %8s %8s %6s %11s %8s %8s %6s %8s\n" conns target "TS req/s" "TS p50" "TS p99" "TS cpu" \
    "nginx req/s" "ng p50" "ng p99" "ng cpu" "TS/nginx"
for conns in $CONNECTIONS; do
    for target in static dynamic; do
        if [ "$target" = static ]; then path=/static/css/tabstage.css; ngpath=$path; else path=/; ngpath=/; fi
        read -r ts_rps ts_p50 ts_p99 ts_cpu ng_rps ng_p50 ng_p99 ng_cpu < <(interleaved_medians "$conns" \
            "http://127.0.0.1:$TS_PORT$path" "http://127.0.0.1:$NG_PORT$ngpath")
        ratio=$(python3 -c "print(f'{$ts_rps / $ng_rps:.2f}')")
        printf "%-6s %-8s %10s %8s %8s %6s %11s %8s %8s %6s %8s\n" "$conns" "$target" "$ts_rps" "$ts_p50" "$ts_p99" \
            "$ts_cpu" "$ng_rps" "$ng_p50" "$ng_p99" "$ng_cpu" "$ratio"
    done
done
