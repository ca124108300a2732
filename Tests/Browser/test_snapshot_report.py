"""The HTML report of `tabstage snapshot test --report`: valid HTML by the Nu checker, with
failures of every kind in it (changed pages, a changed icon, a new and an obsolete snapshot)."""
import subprocess

from support import ROOT, expect_valid_documents


def test_snapshot_report_is_valid_html(binary, nu, tmp_path):
    folder = tmp_path
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
            [binary, "snapshot", "test", "--app", str(app), "--requests", str(requests),
             "--dir", str(snapshots), *extra],
            capture_output=True, text=True, timeout=120)

    recorded = snapshot("--record", "missing")
    assert recorded.returncode == 0, f"recording failed:\n{recorded.stdout}{recorded.stderr}"
    # A renamed tab and a new tint change pages and the icon; a renamed request leaves an
    # obsolete snapshot and a new one.
    app.write_text(
        app_text.replace('"Stamps"', '"<Points & more>"').replace("#6F4E37", "#2993EF"), encoding="utf-8")
    requests.write_text(
        requests.read_text(encoding="utf-8").replace("# as: event-log", "# as: events"), encoding="utf-8")
    report = folder / "report.html"
    failed = snapshot("--record", "never", "--report", str(report))
    assert failed.returncode == 1, f"the changed app should fail:\n{failed.stdout}"
    html = report.read_text(encoding="utf-8")
    for part in ["menu-icon-selected: failed", "events: new", "event-log: obsolete", "&lt;Points &amp; more&gt;"]:
        assert part in html, f"the report lacks {part!r}"
    expect_valid_documents(nu, [(report.name, report.read_bytes())], allowed=None)
