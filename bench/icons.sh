#!/bin/sh
# Our rasterizer against Skia on docs/glow.md's picture: builds tabstage-bench in release mode, makes
# build/bench-venv with skia-python and numpy if missing, and prints one table.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product tabstage-bench
if [ ! -x build/bench-venv/bin/python ] || ! build/bench-venv/bin/python -c "import skia, numpy" 2>/dev/null; then
    python3 -m venv build/bench-venv
    build/bench-venv/bin/pip install --quiet skia-python numpy
fi
exec build/bench-venv/bin/python bench/icons.py "$@"
