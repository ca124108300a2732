#!/usr/bin/env bash
# Instructions per request of the release server under callgrind (repeatable, unlike req/s on a
# shared box). Usage: bench/http-callgrind.sh [path ...]   (env: DURATION=5s CONNECTIONS=4 KEEP=dir)
# Collection starts after one warm-up request; the count covers the server's threads only.
# SESSION=1 sends the warm-up's session cookie; TABSTAGE_PAGE_CACHE=0 (passed to the server) has
# every stage page drawn, none sent again as kept: the cost of drawing a page. BROWSER=1 adds the
# fields Chromium sends on a click of a same-site link (Accept-Language, Sec-Fetch-*, Referer...):
# wrk alone sends Host only, and a visitor's request costs what its fields cost too.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release/tabstage}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-4}
SESSIONS=${SESSIONS:-memory}
PATHS=("$@")
[ ${#PATHS[@]} -gt 0 ] || PATHS=(/static/css/tabstage.css /)
[ -x "$BIN" ] || swift build -c release --product tabstage
OUT=${KEEP:-$(mktemp -d /tmp/tabstage-callgrind.XXXXXX)}
mkdir -p "$OUT"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

pid=
# A failed run (no cookie to carry, say) must not leave its server running under valgrind.
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null' EXIT
for path in "${PATHS[@]}"; do
    name=$(printf "%s" "$path" | tr -c 'a-zA-Z0-9' '_')
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$OUT/cg.$name.out" \
        "$BIN" serve --quiet --host 127.0.0.1 --port "$PORT" --public Public --sessions "$SESSIONS" 2>"$OUT/valgrind.$name.log" &
    pid=$!
    for _ in $(seq 1 300); do curl -fs -o "$OUT/warm-up" -D "$OUT/warm-up.headers" "http://127.0.0.1:$PORT$path" && break; sleep 0.1; done
    HEADERS=()
    if [ -n "${SESSION:-}" ]; then
        cookie=$(grep -o 'tabstage_session=[0-9a-f]*' "$OUT/warm-up.headers" | head -n 1)
        [ -n "$cookie" ] || { echo "bench: $path set no session cookie" >&2; exit 1; }
        HEADERS=(-H "Cookie: $cookie")
    fi
    if [ -n "${BROWSER:-}" ]; then
        HEADERS+=(-H "Connection: keep-alive" -H 'sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24"'
            -H "sec-ch-ua-mobile: ?0" -H 'sec-ch-ua-platform: "Linux"' -H "Upgrade-Insecure-Requests: 1"
            -H "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
            -H "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
            -H "Sec-Fetch-Site: same-origin" -H "Sec-Fetch-Mode: navigate" -H "Sec-Fetch-User: ?1"
            -H "Sec-Fetch-Dest: document" -H "Referer: http://127.0.0.1:$PORT$path"
            -H "Accept-Encoding: gzip, deflate, br, zstd" -H "Accept-Language: en-GB,en;q=0.9")
    fi
    callgrind_control -i on "$pid" >/dev/null
    requests=$(wrk -t1 -c"$CONNECTIONS" -d"$DURATION" "${HEADERS[@]}" "http://127.0.0.1:$PORT$path" | awk '/requests in/ { print $1 }')
    callgrind_control -i off "$pid" >/dev/null
    kill -INT "$pid"
    wait "$pid" || true
    pid=
    annotated=$(callgrind_annotate "$OUT/cg.$name.out" 2>/dev/null)
    total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }' <<<"$annotated")
    # libmicrohttpd clears each connection's pool (16 KB) per request with memset; valgrind counts
    # every byte of its `rep stosb` as an instruction, so it is shown apart.
    memset=$(awk '/__memset/ { gsub(",", "", $1); sum += $1 } END { print sum + 0 }' <<<"$annotated")
    printf "%-28s %6d requests %8d Ir/request %8d without memset\n" "$path" "$requests" $((total / requests)) \
        $(((total - memset) / requests))
done
echo "callgrind files: $OUT"
