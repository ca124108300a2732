#!/bin/sh
# Commits N sessions with the default durability (synchronous=NORMAL), SIGKILLs the process right
# after the last commit, reopens the file and counts what survived. Expect "N sessions, N equal".
set -eu
cd "$(dirname "$0")/.."
count=${1:-200}
swift build -c release --product sessions-bench >/dev/null
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
.build/release/sessions-bench --write-then-kill "$folder/sessions.sqlite" "$count" || true
ls "$folder"
.build/release/sessions-bench --count "$folder/sessions.sqlite"
