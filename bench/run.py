#!/usr/bin/env python3
"""`make bench`: TabStage measured beside the tools people would use instead, in one run.

Sections (each figure the median of several runs, with its spread as min-max):
  http      wrk on loopback (keep-alive): a dynamic tab page rendered from a session's state,
            a cached glow icon and a static file, from TabStage and from nginx serving the
            very same bytes as static files; requests/s, p50/p99 latency, TabStage/nginx.
  render    microseconds to render a full tab page and a fragment (pages-bench).
  icons     our rasterizer against Skia (bench/icons.py), both states at 1x/2x/3x.
  sessions  resident memory with 10,000 and 100,000 live sessions (bytes per session), and
            tab switches per second with the durable (SQLite) store.
  startup   time from launch to the first answered request.
  stores    one instance on each session store (memory, SQLite, Redis): tab page GETs and tab
            switches per second (8 visitors at once; and one alone), Redis against memory and
            SQLite; and nginx over two instances on
            one Redis against nginx over one, same load: page GETs per second, and tab switches
            of 8 visitors at once, whose committed changes must come out exact.
  instructions  instructions per request under callgrind (bench/http-callgrind.sh) for the tab
            page, an icon and a static file, each against its budget in PERFORMANCE.md ("Instruction
            budgets"): make bench exits 1 when one is over.
  live      10,000 follower streams on one server: a presenter's tap reaching all of them (p50/p99),
            the resident memory of the open streams, tab-page throughput with the streams open
            against a twin server without; and `serve --watch`, from a file save to the change on
            an open page. Raises its descriptor limit to hold the followers' sockets.

Prints one table per section and writes everything to build/bench/report.json.
Every load is bounded in time and count and goes to 127.0.0.1 only.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".build" / "release" / "tabstage"
BENCH_BIN = ROOT / ".build" / "release" / "tabstage-bench"
PAGES_BENCH_BIN = ROOT / ".build" / "release" / "pages-bench"
REPORT = ROOT / "build" / "bench" / "report.json"
NGINX = "/usr/sbin/nginx"


def log(message):
    print(message, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def summary(values):
    """Median with its spread, for the report."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def wait_until_up(url, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"{url} did not come up")


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


class TabStage:
    """The release server on a free port, its own session store, no access log."""

    def __init__(self, *extra, threading=None):
        self.port = free_port()
        self.workdir = tempfile.mkdtemp(prefix="tabstage-bench-")
        # `TABSTAGE_THREADING` picks libmicrohttpd's threading mode (see ServeCommand).
        environment = dict(os.environ, TABSTAGE_THREADING=threading) if threading else None
        self.process = subprocess.Popen(
            [str(BIN), "serve", "--quiet", "--host", "127.0.0.1", "--port", str(self.port),
             "--public", str(ROOT / "Public"), *extra],
            cwd=self.workdir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment)
        self.base = f"http://127.0.0.1:{self.port}"
        wait_until_up(self.base + "/healthz")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)


def supports(option):
    usage = subprocess.run([str(BIN), "serve", "--help"], capture_output=True, text=True).stdout
    return option in usage


def memory_store_options():
    return ["--sessions", "memory"] if supports("--sessions") else []


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read(), response.headers


def session_cookie(base, path):
    """Visits `path` once and returns the session cookie that visit created."""
    opener = urllib.request.build_opener(urllib.request.HTTPRedirectHandler())
    with opener.open(base + path, timeout=10) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            match = re.match(r"(tabstage_session=[0-9a-f]+)", header)
            if match:
                return match.group(1)
    raise RuntimeError(f"{path} set no session cookie")


def cpu_seconds(pids):
    """User + system CPU time used so far by these processes (all their threads)."""
    ticks = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            # Fields 14 and 15, counted after the ")" that ends the command name.
            fields = stat.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def wrk(url, connections, duration, headers=(), script=None, server_pids=()):
    """-> (requests/s, p50 ms, p99 ms, server CPU µs per request). The server's CPU per request
    is steadier than requests/s on a shared machine, where wrk and neighbours take turns."""
    # wrk wants at least one connection per thread.
    command = ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{duration}", "--latency"]
    for header in headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    cpu_before = cpu_seconds(server_pids)
    output = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(server_pids) - cpu_before

    def milliseconds(text):
        value = float(re.match(r"[\d.]+", text).group(0))
        return value / 1000 if text.endswith("us") else value * 1000 if re.search(r"\ds$", text) else value

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p50 = milliseconds(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1))
    p99 = milliseconds(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    if errors or socket_errors:
        raise RuntimeError(f"wrk saw failures on {url}: {output}")
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    return rps, p50, p99, cpu * 1e6 / requests if server_pids and requests else 0.0


class Nginx:
    """nginx serving files from `root` on a free loopback port, with its own config."""

    def __init__(self, root):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tabstage-nginx-"))
        os.chmod(self.dir, 0o755)
        config = self.dir / "nginx.conf"
        temp = self.dir / "temp"
        temp.mkdir()  # nginx makes the folders below it, not this one
        config.write_text(f"""
worker_processes 2;
daemon off;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 10000000;
    types {{ text/html html; text/css css; image/png png; }}
    default_type text/html;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    server {{
        listen 127.0.0.1:{self.port};
        root {root};
    }}
}}
""")
        self.process = subprocess.Popen([NGINX, "-p", str(self.dir), "-e", str(self.dir / "error.log"),
                                         "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        wait_until_up(self.base + "/static/css/tabstage.css")
        master = int((self.dir / "nginx.pid").read_text())
        workers = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
        self.pids = [master, *map(int, workers)]

    def stop(self):
        self.process.send_signal(signal.SIGQUIT)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


CPU_GOALS = {"dynamic page": 1.0, "cached icon": 0.67}


def section_http(args):
    server = TabStage(*memory_store_options(), threading=args.threading)
    root = Path(tempfile.mkdtemp(prefix="tabstage-nginx-root-"))
    os.chmod(root, 0o755)
    nginx = None
    try:
        cookie = session_cookie(server.base, "/restaurant/bottom/home")
        targets = {
            "dynamic page": ("/restaurant/bottom/home", [f"Cookie: {cookie}"], "page.html"),
            "cached icon": ("/icons/home/selected@2x.png?tint=FF9500", [], "icon.png"),
            "static file": ("/static/css/tabstage.css", [], "static/css/tabstage.css"),
        }
        for path, headers, file in targets.values():
            body, _ = fetch(server.base + path, dict(h.split(": ", 1) for h in headers))
            destination = root / file
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(body)
            os.chmod(destination, 0o644)
        for folder in (root / "static", root / "static" / "css"):
            os.chmod(folder, 0o755)
        nginx = Nginx(root)
        rows = []
        for connections in args.connections:
            for name, (path, headers, file) in targets.items():
                ours, theirs = [], []
                for _ in range(args.runs):  # interleaved, so both see the same machine
                    ours.append(wrk(server.base + path, connections, args.duration, headers,
                                    server_pids=[server.process.pid]))
                    theirs.append(wrk(f"{nginx.base}/{file}", connections, args.duration, server_pids=nginx.pids))
                row = {"target": name, "connections": connections, "path": path,
                       "tabstage_rps": summary([r[0] for r in ours]),
                       "tabstage_p50_ms": summary([r[1] for r in ours]),
                       "tabstage_p99_ms": summary([r[2] for r in ours]),
                       "nginx_rps": summary([r[0] for r in theirs]),
                       "nginx_p50_ms": summary([r[1] for r in theirs]),
                       "nginx_p99_ms": summary([r[2] for r in theirs]),
                       "tabstage_cpu_us": summary([r[3] for r in ours]),
                       "nginx_cpu_us": summary([r[3] for r in theirs])}
                row["ratio"] = row["tabstage_rps"]["median"] / row["nginx_rps"]["median"]
                row["target_ratio"] = 1.0 if name == "dynamic page" else 1.5
                # The server's CPU per request against nginx's for the same bytes (issue 33's goals:
                # the page at most nginx's, the icon at most two thirds of it).
                row["cpu_ratio"] = row["tabstage_cpu_us"]["median"] / row["nginx_cpu_us"]["median"]
                row["cpu_goal"] = CPU_GOALS.get(name)
                rows.append(row)
                log(f"  http {name} c{connections}: {row['ratio']:.2f}x nginx")
        return rows
    finally:
        server.stop()
        if nginx:
            nginx.stop()
        shutil.rmtree(root, ignore_errors=True)


# The rows of PERFORMANCE.md's "Instruction budgets" table: | what | `PATH` | SESSION | budget |
BUDGET_ROW = re.compile(r"^\| [^|]+ \| `(/[^`]*)` \| (yes|no) \| ([0-9,]+) \|")


def instruction_budgets():
    """(path, with the session cookie, budget) from PERFORMANCE.md, the one place that says them."""
    text = (ROOT / "PERFORMANCE.md").read_text()
    section = text.split("### Instruction budgets", 1)[1].split("\n#", 1)[0]
    budgets = [(m[1], m[2] == "yes", int(m[3].replace(",", "")))
               for m in map(BUDGET_ROW.match, section.splitlines()) if m]
    if not budgets:
        raise RuntimeError("PERFORMANCE.md has no rows under '### Instruction budgets'")
    return budgets


def section_instructions(args):
    """Each budgeted path under callgrind, args.runs times interleaved; the median against its budget."""
    if not shutil.which("valgrind"):
        raise RuntimeError("valgrind is missing (make bench installs it)")
    budgets = instruction_budgets()
    counts = {path: [] for path, _, _ in budgets}
    for _ in range(args.runs):
        for path, session, _ in budgets:
            environment = dict(os.environ, DURATION=args.callgrind_duration, BIN=str(BIN))
            environment.pop("SESSION", None)
            if session:
                environment["SESSION"] = "1"
            output = subprocess.run(["bash", str(ROOT / "bench" / "http-callgrind.sh"), path], env=environment,
                                    capture_output=True, text=True, check=True).stdout
            found = re.search(r"(\d+) requests\s+(\d+) Ir/request\s+(\d+) without memset", output)
            if not found:
                raise RuntimeError(f"http-callgrind.sh said nothing about {path}: {output[-300:]}")
            counts[path].append((int(found[1]), int(found[2]), int(found[3])))
            log(f"  instructions {path}: {found[2]} per request ({found[1]} requests)")
    rows = []
    for path, session, budget in budgets:
        per_request = summary([c[1] for c in counts[path]])
        rows.append({"path": path, "session": session, "budget": budget, "instructions": per_request,
                     "without_memset": summary([c[2] for c in counts[path]]),
                     "requests": summary([c[0] for c in counts[path]]),
                     "over": per_request["median"] > budget})
    return rows


def section_render(args):
    output = subprocess.run([str(PAGES_BENCH_BIN), "--json", "--runs", str(args.render_runs)],
                            capture_output=True, text=True, check=True).stdout
    return json.loads(output)["pages"]


def section_icons(args):
    venv = ROOT / "build" / "bench-venv"
    if not (venv / "bin" / "python").exists() or subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import skia, numpy"], capture_output=True).returncode:
        log("  setting up build/bench-venv with skia-python (once)")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "skia-python", "numpy"], check=True)
    output = subprocess.run([str(venv / "bin" / "python"), str(ROOT / "bench" / "icons.py"), "--json",
                             "--runs", str(args.icon_runs), "--bench", str(BENCH_BIN)],
                            capture_output=True, text=True, check=True).stdout
    return json.loads(output)["results"]


def create_sessions(port, count, path="/restaurant/bottom/home", connections=8):
    """`count` GETs without a cookie, over keep-alive connections: each makes one session."""
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").encode()
    import threading

    def worker(share):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
            reader = connection.makefile("rb")
            for _ in range(share):
                connection.sendall(request)
                length = None
                while True:
                    line = reader.readline()
                    if line in (b"\r\n", b""):
                        break
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                reader.read(length or 0)

    shares = [count // connections + (1 if i < count % connections else 0) for i in range(connections)]
    threads = [threading.Thread(target=worker, args=(share,)) for share in shares]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def section_sessions(args):
    rows = []
    for count in args.session_counts:
        per_session = []
        for _ in range(args.memory_runs):
            server = TabStage(*memory_store_options(), "--max-sessions", str(count * 2))
            try:
                create_sessions(server.port, 1000)  # warm up allocators and caches first
                before = rss_bytes(server.process.pid)
                started = time.monotonic()
                create_sessions(server.port, count)
                elapsed = time.monotonic() - started
                after = rss_bytes(server.process.pid)
                per_session.append((after - before) / count)
            finally:
                server.stop()
        rows.append({"sessions": count, "bytes_per_session": summary(per_session),
                     "target_bytes": 2048, "creation_per_second": count / elapsed})
        log(f"  sessions {count}: {statistics.median(per_session):.0f} B each")
    switches = None
    if supports("--sessions"):
        database = Path(tempfile.mkdtemp(prefix="tabstage-sessions-")) / "sessions.sqlite"
        server = TabStage("--sessions", f"sqlite:{database}")
        try:
            cookie = session_cookie(server.base, "/restaurant/bottom/home")
            script = Path(tempfile.mkdtemp()) / "switch.lua"
            # Each request selects the other tab, so every one is a committed change.
            script.write_text('local i = 0\nrequest = function()\n  i = i + 1\n'
                              '  local tab = (i % 2 == 0) and "home" or "wallet"\n'
                              '  return wrk.format("GET", "/restaurant/bottom/" .. tab)\nend\n')
            runs = [wrk(server.base + "/", 1, args.duration, [f"Cookie: {cookie}", "X-TabStage-Source: tap"],
                        str(script)) for _ in range(args.runs)]
            switches = {"switches_per_second": summary([r[0] for r in runs]),
                        "p50_ms": summary([r[1] for r in runs]), "store": "sqlite (WAL, synchronous=NORMAL)"}
            log(f"  durable tab switches: {switches['switches_per_second']['median']:.0f}/s")
        finally:
            server.stop()
            shutil.rmtree(database.parent, ignore_errors=True)
    return {"memory": rows, "durable_switches": switches}


class Redis:
    """redis-server on a free loopback port, its append-only file in a folder of its own, as
    docs/several-instances.md runs it."""

    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="tabstage-bench-redis-")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
             "--appendonly", "yes", "--appendfsync", "everysec", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not come up")
                time.sleep(0.02)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)
        shutil.rmtree(self.dir, ignore_errors=True)


class Balancer(Nginx):
    """nginx from the sample config (examples/nginx/tabstage.conf), round-robin over `ports`;
    stopped as `Nginx` is."""

    def __init__(self, ports):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tabstage-bench-balancer-"))
        lines = (ROOT / "examples" / "nginx" / "tabstage.conf").read_text().splitlines()
        config, servers = [], 0
        for line in lines:
            if line.strip().startswith("server 127.0.0.1:808"):
                servers += 1
                if servers > len(ports):
                    continue
                line = re.sub(r"127\.0\.0\.1:808\d", f"127.0.0.1:{ports[servers - 1]}", line)
            line = line.replace("listen 127.0.0.1:8080", f"listen 127.0.0.1:{self.port}")
            config.append(line)
        (self.dir / "nginx.conf").write_text("\n".join(config) + "\n")
        self.process = subprocess.Popen([NGINX, "-p", f"{self.dir}/", "-e", "error.log", "-c",
                                         str(self.dir / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        wait_until_up(self.base + "/healthz")


def wrk_script(text):
    path = Path(tempfile.mkdtemp(prefix="tabstage-bench-wrk-")) / "script.lua"
    path.write_text(text)
    return str(path)


# Each request selects the other tab, so every one is a committed change.
SWITCH_SCRIPT = ('local i = 0\nrequest = function()\n  i = i + 1\n'
                 '  local tab = (i % 2 == 0) and "home" or "wallet"\n'
                 '  return wrk.format("GET", "/restaurant/bottom/" .. tab)\nend\n')


def revision(base, cookie):
    """The session's revision, as its selected tab's page carries it (`data-version`): one more
    for every committed change. Reading it changes nothing."""
    page, _ = fetch(base + "/restaurant/bottom", {"Cookie": cookie})
    return int(re.search(rb'data-version="(\d+)-', page).group(1))


def store_figures(server, args, pid):
    """One server's figures: page GETs/s at -c16 with one visitor's cookie; tab switches/s of 8
    visitors at once (`visitor_switches`), the throughput a store's goal is judged on; and one
    visitor switching alone (wrk -c1), its switches/s and p50 ms, which a round trip to another
    process (Redis) lengthens however little the server works."""
    cookie = session_cookie(server, "/restaurant/bottom/home")
    page = wrk(server + "/restaurant/bottom/home", 16, args.duration, [f"Cookie: {cookie}"], server_pids=[pid])
    together = visitor_switches(server, args)
    alone = wrk(server + "/", 1, args.duration, [f"Cookie: {cookie}", "X-TabStage-Source: tap"],
                wrk_script(SWITCH_SCRIPT))
    if not together["exact"]:
        raise RuntimeError(f"changes did not come out exact: {together}")
    return {"page_rps": page[0], "switches_per_second": together["rps"],
            "serial_switches_per_second": alone[0], "serial_switch_p50_ms": alone[1]}


def balanced_figures(base, args, connections=8):
    """(page GETs/s at -c16, tab switches/s, whether the changes counted came out exact, the
    changes counted, the switches answered) through the balancer at `base`, the switches from
    `visitor_switches`."""
    cookie = session_cookie(base, "/restaurant/bottom/home")
    page = wrk(base + "/restaurant/bottom/home", 16, args.duration, [f"Cookie: {cookie}"])
    switches = visitor_switches(base, args, connections)
    return page[0], switches["rps"], switches["exact"], switches["changes"], switches["answered"]


def visitor_switches(base, args, connections=8):
    """Tab switches from `connections` visitors at once, one connection (and wrk thread) each, so
    each visitor's taps are sequential, as a browser's are, while the server serves all of them:
    switches/s, the switches answered, the changes their sessions counted, and whether those
    came out exact (every answered switch committed once)."""
    cookies = [session_cookie(base, "/restaurant/bottom/home") for _ in range(connections)]
    before = [revision(base, cookie) for cookie in cookies]
    table = ",".join(f'"{cookie}"' for cookie in cookies)
    # Each visitor's taps alternate between two tabs, from home: every one is a committed change.
    script = wrk_script(f"local cookies = {{{table}}}\n"
                        "local next = 1\n"
                        "setup = function(thread) thread:set('visitor', next); next = next + 1 end\n"
                        "local taps = 0\n"
                        "request = function()\n"
                        "  taps = taps + 1\n"
                        "  local tab = (taps % 2 == 1) and 'wallet' or 'home'\n"
                        "  return wrk.format('GET', '/restaurant/bottom/' .. tab,\n"
                        "    {['Cookie'] = cookies[visitor], ['X-TabStage-Source'] = 'tap'})\n"
                        "end\n")
    command = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{args.duration}", "-s", script, base + "/"]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    if re.search(r"Non-2xx or 3xx responses|Socket errors", output):
        raise RuntimeError(f"tab switches failed: {output}")
    answered = int(re.search(r"(\d+) requests in", output).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    time.sleep(0.5)  # the requests wrk gave up on at the end are committed or not by now
    changes = sum(revision(base, cookie) - first for cookie, first in zip(cookies, before))
    # Committed but unanswered when wrk stopped: at most one in flight per connection.
    return {"rps": rps, "answered": answered, "changes": changes,
            "exact": answered <= changes <= answered + connections}


def section_stores(args):
    if not shutil.which("redis-server"):
        raise RuntimeError("redis-server is missing (make bench installs it)")
    redis = Redis()
    database = Path(tempfile.mkdtemp(prefix="tabstage-bench-sqlite-")) / "sessions.sqlite"
    servers = {"memory": TabStage("--sessions", "memory"),
               "sqlite": TabStage("--sessions", f"sqlite:{database}"),
               "redis": TabStage("--sessions", redis.url, "--redis-prefix", "one:")}
    balancers = []
    instances = []
    try:
        figures = {name: [] for name in servers}
        for _ in range(args.runs):  # interleaved, so every store sees the same machine
            for name, server in servers.items():
                figures[name].append(store_figures(server.base, args, server.process.pid))
        report = {"stores": {name: {key: summary([f[key] for f in runs]) for key in runs[0]}
                             for name, runs in figures.items()}}
        stores = report["stores"]
        report["redis_page_vs_memory"] = stores["redis"]["page_rps"]["median"] / stores["memory"]["page_rps"]["median"]
        report["redis_switches_vs_sqlite"] = (stores["redis"]["switches_per_second"]["median"]
                                              / stores["sqlite"]["switches_per_second"]["median"])
        report["redis_serial_switches_vs_sqlite"] = (stores["redis"]["serial_switches_per_second"]["median"]
                                                     / stores["sqlite"]["serial_switches_per_second"]["median"])
        log(f"  stores: Redis page {report['redis_page_vs_memory']:.2f}x memory, "
            f"Redis switches {report['redis_switches_vs_sqlite']:.2f}x SQLite")
        for server in servers.values():
            server.stop()
        servers = {}
        # Both balancers on one Redis, each deployment on its own prefix (the two instances of
        # the second share theirs); the same total load on each.
        options = ["--max-connections-per-ip", "1000", "--trust-proxy", "127.0.0.1"]
        instances = [TabStage("--sessions", redis.url, "--redis-prefix", prefix, *options)
                     for prefix in ("alone:", "pair:", "pair:")]
        balancers = {1: Balancer([instances[0].port]), 2: Balancer([instances[1].port, instances[2].port])}
        balanced = {count: [] for count in balancers}
        for _ in range(args.runs):
            for count, balancer in balancers.items():
                balanced[count].append(balanced_figures(balancer.base, args))
        report["balanced"] = {str(count): {"page_rps": summary([r[0] for r in runs]),
                                           "switches_per_second": summary([r[1] for r in runs]),
                                           "consistent": all(r[2] for r in runs),
                                           "counts": [[r[3], r[4]] for r in runs]}
                              for count, runs in balanced.items()}
        two, one = report["balanced"]["2"], report["balanced"]["1"]
        report["two_vs_one_page"] = two["page_rps"]["median"] / one["page_rps"]["median"]
        report["two_vs_one_switches"] = two["switches_per_second"]["median"] / one["switches_per_second"]["median"]
        log(f"  balanced: two instances {report['two_vs_one_page']:.2f}x one for pages, "
            f"{report['two_vs_one_switches']:.2f}x for switches, consistent: {one['consistent'] and two['consistent']}")
        return report
    finally:
        for server in [*servers.values(), *instances]:
            server.stop()
        for balancer in (balancers.values() if balancers else []):
            balancer.stop()
        redis.stop()
        shutil.rmtree(database.parent, ignore_errors=True)


def section_startup(args):
    samples = []
    for _ in range(args.startup_runs):
        port = free_port()
        workdir = tempfile.mkdtemp(prefix="tabstage-start-")
        started = time.monotonic()
        process = subprocess.Popen([str(BIN), "serve", "--quiet", "--host", "127.0.0.1", "--port", str(port),
                                    "--public", str(ROOT / "Public"), *memory_store_options()],
                                   cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                        if connection.recv(12).startswith(b"HTTP/1.1 200"):
                            break
                except OSError:
                    time.sleep(0.001)
                if time.monotonic() - started > 10:
                    raise RuntimeError("the server did not answer within 10 s")
            samples.append((time.monotonic() - started) * 1000)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=20)
            shutil.rmtree(workdir, ignore_errors=True)
    return {"first_response_ms": summary(samples), "target_ms": 100}


# Linux's receive timestamps in nanoseconds (Python names it from 3.12 only); its control
# message is a struct timespec of two 64-bit fields.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


class FollowerStreams:
    """`count` open event streams of one follow link, spread over several loopback addresses
    (the server limits streams per address), read by one thread on one epoll set. Each `change`
    event's arrival is the kernel's receive time of its bytes (`SO_TIMESTAMPNS`, wall clock):
    how long the server took to reach every follower, however long this one thread then takes
    to read 10,000 sockets."""

    def __init__(self, port, path, count, per_address=50, batch=200):
        import select
        import threading
        self.arrivals = []
        self.lock = threading.Lock()
        self.sockets = {}
        self.epoll = select.epoll()
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        for start in range(0, count, batch):
            opening = []
            for index in range(start, min(count, start + batch)):
                stream = socket.socket()
                stream.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
                stream.bind((f"127.0.0.{2 + index // per_address}", 0))
                stream.settimeout(30)
                stream.connect(("127.0.0.1", port))
                stream.sendall(request)
                opening.append(stream)
            for stream in opening:  # all of a batch asked before any answer is read
                received = b""
                while b"event: hello" not in received:
                    chunk = stream.recv(4096)
                    if not chunk:
                        raise RuntimeError(f"stream closed: {received[:60]!r}")
                    received += chunk
                if b" 200 " not in received.split(b"\r\n", 1)[0]:
                    raise RuntimeError(f"stream refused: {received[:40]!r}")
                stream.setblocking(False)
                self.sockets[stream.fileno()] = stream
                self.epoll.register(stream.fileno(), select.EPOLLIN)
        self.opened = len(self.sockets)
        self.running = True
        self.thread = threading.Thread(target=self.listen, daemon=True)
        self.thread.start()

    def listen(self):
        import struct
        timestamp = struct.Struct("qq")
        while self.running:
            for descriptor, _ in self.epoll.poll(0.1):
                stream = self.sockets.get(descriptor)
                if stream is None:
                    continue
                try:
                    data, ancillary, _, _ = stream.recvmsg(4096, socket.CMSG_SPACE(timestamp.size))
                except BlockingIOError:
                    continue
                if not data:
                    self.epoll.unregister(descriptor)
                    continue
                arrived = time.time()
                for level, kind, value in ancillary:
                    if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                        seconds, nanoseconds = timestamp.unpack(value[:timestamp.size])
                        arrived = seconds + nanoseconds / 1e9
                # An event is a few dozen bytes, sent in one write: never split across reads here.
                changes = data.count(b"event: change")
                if changes:
                    with self.lock:
                        self.arrivals.extend([arrived] * changes)

    def heard(self):
        """How many changes have been heard so far."""
        with self.lock:
            return len(self.arrivals)

    def arrivals_after(self, mark):
        """Arrival times (wall clock, `time.time()`) of the changes heard after the first `mark`."""
        with self.lock:
            return self.arrivals[mark:]

    def close(self):
        self.running = False
        self.thread.join(timeout=10)
        for stream in self.sockets.values():
            stream.close()
        self.epoll.close()


def presenter_session(base):
    """A visitor who presents the restaurant app: their cookie and the follow link's path."""
    jar = urllib.request.HTTPCookieProcessor()
    opener = urllib.request.build_opener(jar)
    page = opener.open(base + "/restaurant/bottom/home", timeout=10).read().decode()
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
    form = f"layout=bottom&csrf={token}".encode()
    page = opener.open(urllib.request.Request(base + "/restaurant/present", data=form), timeout=10).read().decode()
    # The link is absolute (the room types or scans it): its path is what the streams ask for.
    follow = urllib.parse.urlsplit(re.search(r'class="follow-link" href="([^"]+)"', page).group(1)).path
    cookie = next(f"{c.name}={c.value}" for c in jar.cookiejar if c.name == "tabstage_session")
    return cookie, follow


def raise_descriptor_limit(needed):
    """Raises this process's soft limit on open descriptors to `needed` (up to the hard limit):
    every follower stream of the live section is a socket here as well as in the server."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    if soft != resource.RLIM_INFINITY and soft < needed:
        raise RuntimeError(f"{needed} descriptors are needed and the hard limit is {hard}: raise it (ulimit -Hn)")
    return soft


# The live section's goals (issue 33): 10,000 followers of one presenter on one instance.
LIVE_GOALS = {"fanout_p99_ms": 500, "streams_mb": 160, "throughput_ratio": 0.8, "watch_ms": 300}


def section_live(args):
    """One server with `--live-streams` follower streams open and a twin with none, the same
    flags: a presenter's tap reaching every follower (the kernel's receive times), the server's
    resident memory for the streams, and tab pages per second on the two, runs interleaved."""
    report = {}
    report["descriptor_limit"] = raise_descriptor_limit(args.live_streams + 1000)
    # `--max-streams` (4,000 by default, docs/cli.md) is raised to hold every follower; the
    # server raises its own descriptor limit to match. 50 followers to a loopback address stay
    # under `--max-streams-per-ip` (64).
    options = [*memory_store_options(), "--max-streams", str(args.live_streams)]
    server, twin = TabStage(*options), TabStage(*options)
    streams = None
    try:
        cookie, follow = presenter_session(server.base)
        twin_cookie, _ = presenter_session(twin.base)
        for base, visitor in ((server.base, cookie), (twin.base, twin_cookie)):
            for _ in range(200):  # warm the page path before measuring memory
                fetch(base + "/restaurant/bottom/home", {"Cookie": visitor})
        before = rss_bytes(server.process.pid)
        streams = FollowerStreams(server.port, follow + "/live", args.live_streams)
        time.sleep(1)
        after = rss_bytes(server.process.pid)
        report["streams"] = streams.opened
        report["bytes_per_stream"] = (after - before) / streams.opened
        report["streams_mb"] = (after - before) / 1e6
        latencies, answered = [], []
        tabs = ["wallet", "news", "finding", "home"]
        for index in range(args.live_taps):
            mark = streams.heard()
            moment = time.time()  # the clock of the arrivals' kernel timestamps
            fetch(f"{server.base}/restaurant/bottom/{tabs[index % len(tabs)]}",
                  {"Cookie": cookie, "X-TabStage-Source": "tap"})
            answered.append((time.time() - moment) * 1000)
            deadline = time.monotonic() + 10
            while streams.heard() - mark < streams.opened and time.monotonic() < deadline:
                time.sleep(0.005)
            arrived = streams.arrivals_after(mark)
            if len(arrived) < streams.opened:
                raise RuntimeError(f"tap {index}: {len(arrived)} of {streams.opened} streams heard it")
            latencies += [(t - moment) * 1000 for t in arrived]
            time.sleep(0.2)
        latencies.sort()
        report["fanout_p50_ms"] = latencies[len(latencies) // 2]
        report["fanout_p99_ms"] = latencies[int(len(latencies) * 0.99)]
        report["tap_answered_ms"] = summary(answered)
        report["taps"] = args.live_taps
        without, with_streams = [], []
        for _ in range(args.runs):  # interleaved, so both see the same machine
            without.append(wrk(twin.base + "/restaurant/bottom/home", 16, args.duration, [f"Cookie: {twin_cookie}"],
                               server_pids=[twin.process.pid]))
            with_streams.append(wrk(server.base + "/restaurant/bottom/home", 16, args.duration, [f"Cookie: {cookie}"],
                                    server_pids=[server.process.pid]))
        report["page_rps_without"] = summary([r[0] for r in without])
        report["page_rps_with"] = summary([r[0] for r in with_streams])
        report["throughput_ratio"] = report["page_rps_with"]["median"] / report["page_rps_without"]["median"]
        report["goals"] = LIVE_GOALS
        log(f"  live: {streams.opened} streams, p99 {report['fanout_p99_ms']:.1f} ms, "
            f"{report['bytes_per_stream']:.0f} B/stream, {report['throughput_ratio']:.2f}x throughput")
    finally:
        if streams:
            streams.close()
        server.stop()
        twin.stop()
    report["watch_save_to_page_ms"] = summary(watch_latencies(args.live_saves))
    return report


def watch_latencies(saves):
    """From a rename-save of an --app file to the open page's stream saying `change` and the page
    read again with the new title."""
    folder = Path(tempfile.mkdtemp(prefix="tabstage-bench-watch-"))
    path = folder / "coffee.json"
    app = json.loads((ROOT / "examples" / "coffee.json").read_text())
    path.write_text(json.dumps(app))
    server = TabStage(*memory_store_options(), "--app", str(path), "--watch")
    results = []
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as stream:
            stream.sendall(b"GET /coffee/live HTTP/1.1\r\nHost: x\r\n\r\n")
            received = b""
            while b"event: hello" not in received:
                received += stream.recv(4096)
            for index in range(saves):
                title = f"Menu {index}"
                app["tabs"][0]["title"]["en"] = title
                temporary = folder / ".coffee.json.tmp"
                temporary.write_text(json.dumps(app))
                started = time.monotonic()
                os.replace(temporary, path)
                received = b""
                while b"event: change" not in received:
                    received += stream.recv(4096)
                page, _ = fetch(server.base + "/coffee/bottom/menu")
                if title.encode() not in page:
                    raise RuntimeError("the page did not show the saved title")
                results.append((time.monotonic() - started) * 1000)
                time.sleep(0.3)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return results


def fmt(stat, digits=0):
    return f"{stat['median']:.{digits}f} ({stat['min']:.{digits}f}-{stat['max']:.{digits}f})"


def print_report(report):
    if "http" in report:
        print("\nHTTP, wrk -t2 keep-alive on loopback; req/s median (min-max) of "
              f"{report['settings']['runs']} interleaved runs of {report['settings']['duration']}, "
              f"TabStage threading: {report['settings'].get('threading', 'pool')}")
        print("(cpu: the server's CPU time per request, user + system, µs; median of the runs. ratio: req/s;"
              " cpu ratio: TabStage's CPU per request over nginx's)")
        print(f"{'target':13} {'conns':>5} {'TabStage req/s':>24} {'p50/p99 ms':>13} {'cpu':>5} {'nginx req/s':>24} "
              f"{'p50/p99 ms':>13} {'cpu':>5} {'ratio':>6} {'goal':>5} {'cpu ratio':>9} {'goal':>6}")
        for row in report["http"]:
            print(f"{row['target']:13} {row['connections']:5d} {fmt(row['tabstage_rps']):>24} "
                  f"{row['tabstage_p50_ms']['median']:6.2f}/{row['tabstage_p99_ms']['median']:<6.2f} "
                  f"{row['tabstage_cpu_us']['median']:5.1f} "
                  f"{fmt(row['nginx_rps']):>24} {row['nginx_p50_ms']['median']:6.2f}/{row['nginx_p99_ms']['median']:<6.2f}"
                  f" {row['nginx_cpu_us']['median']:5.1f} {row['ratio']:6.2f} {row['target_ratio']:5.1f}"
                  f" {row.get('cpu_ratio', 0):9.2f} {'<= ' + format(row['cpu_goal'], '.2f') if row.get('cpu_goal') else '':>6}")
    if "instructions" in report:
        print("\nInstructions per request under callgrind (bench/http-callgrind.sh), median (min-max) of "
              f"{report['settings']['runs']} interleaved runs; budgets from PERFORMANCE.md")
        for row in report["instructions"]:
            verdict = "OVER BUDGET" if row["over"] else "within"
            print(f"  {row['path']:40} {fmt(row['instructions']):>24}  budget {row['budget']:>7,}  {verdict}"
                  f"  (without memset {row['without_memset']['median']:,.0f}; {row['requests']['median']:,.0f} requests)")
    if "render" in report:
        print("\nRendering (pure views, in-process), microseconds, median (min-max)")
        for row in report["render"]:
            print(f"  {row['name']:40} {fmt(row['us'], 1):>22}  {row['bytes']} bytes")
    if "icons" in report:
        print("\nIcons, microseconds (medians of alternating batches on one core); ratio = Skia render / our "
              "render+encode per round (goal > 1): median, middle half, lowest")
        print(f"  {'icon':10} {'state':10} {'scale':>5} {'skia':>8} {'ours':>8} {'ours+png':>9} {'bytes':>6} {'ratio':>6} "
              f"{'middle half':>12} {'lowest':>6}")
        for row in report["icons"]:
            print(f"  {row['icon']:10} {row['state']:10} {row['scale']:>4}x {row['skia_us']:8.1f} {row['render_us']:8.1f} "
                  f"{row['render_encode_us']:9.1f} {row['png_bytes']:6d} {row['ratio']:6.2f} "
                  f"{row['ratio_q1']:5.2f}-{row['ratio_q3']:<5.2f} {row['ratio_min']:6.2f}")
    if "sessions" in report:
        print("\nSessions (memory store): resident memory per idle session, bytes (goal <= 2048)")
        for row in report["sessions"]["memory"]:
            print(f"  {row['sessions']:>7d} sessions: {fmt(row['bytes_per_session']):>24} B/session, "
                  f"{row['creation_per_second']:.0f} created/s")
        durable = report["sessions"]["durable_switches"]
        if durable:
            print(f"  durable tab switches: {fmt(durable['switches_per_second'])} /s, "
                  f"p50 {durable['p50_ms']['median']:.2f} ms ({durable['store']})")
    if "stores" in report:
        stores = report["stores"]
        print("\nSession stores, one instance each; median (min-max): tab page GETs/s (wrk -c16); tab "
              "switches/s, each a committed change, of 8 visitors at once (wrk -t8 -c8) and of one alone (wrk -c1)")
        for name, row in stores["stores"].items():
            print(f"  {name:7} page {fmt(row['page_rps']):>24} /s   switches {fmt(row['switches_per_second']):>20} /s"
                  f"   alone {fmt(row['serial_switches_per_second']):>20} /s, "
                  f"p50 {row['serial_switch_p50_ms']['median']:.2f} ms")
        print(f"  Redis page / memory page: {stores['redis_page_vs_memory']:.2f} (goal >= 0.8); "
              f"Redis switches / SQLite switches: {stores['redis_switches_vs_sqlite']:.2f} (goal >= 1); "
              f"one visitor alone: {stores['redis_serial_switches_vs_sqlite']:.2f} (goal >= 1)")
        print("  nginx (examples/nginx/tabstage.conf) over N instances on one Redis, the same load each: "
              "page GETs/s (wrk -c16), tab switches/s of 8 visitors at once (wrk -t8 -c8)")
        for count, row in stores["balanced"].items():
            print(f"  {count} instance(s): page {fmt(row['page_rps']):>24} /s   switches {fmt(row['switches_per_second']):>20}"
                  f" /s   changes exact: {row['consistent']} (changes/answered {row['counts']})")
        print(f"  two / one: pages {stores['two_vs_one_page']:.2f}, switches {stores['two_vs_one_switches']:.2f}")
    if "live" in report:
        live = report["live"]
        goals = live.get("goals", LIVE_GOALS)
        print(f"\nLive: {live['streams']} follower streams of one presenter on one server, {live['taps']} taps "
              f"(this process's descriptor limit raised to {live.get('descriptor_limit')} for their sockets)")
        print(f"  tap to every stream: p50 {live['fanout_p50_ms']:.1f} ms, p99 {live['fanout_p99_ms']:.1f} ms "
              f"(goal p99 <= {goals['fanout_p99_ms']}); the presenter's tap answered in "
              f"{fmt(live['tap_answered_ms'], 1)} ms")
        print(f"  resident memory of the open streams: {live['streams_mb']:.1f} MB, {live['bytes_per_stream']:.0f} B "
              f"a stream (goal <= {goals['streams_mb']} MB in all)")
        print(f"  tab page req/s (wrk -c16), a twin server without streams against this one, interleaved: "
              f"{fmt(live['page_rps_without'])} and {fmt(live['page_rps_with'])}: {live['throughput_ratio']:.2f}x "
              f"(goal >= {goals['throughput_ratio']})")
        print(f"  --watch, save to page: {fmt(live['watch_save_to_page_ms'], 1)} ms (goal <= {goals['watch_ms']})")
    if "startup" in report:
        print(f"\nStart-up: first answered request {fmt(report['startup']['first_response_ms'], 1)} ms "
              f"after launch (goal <= {report['startup']['target_ms']} ms)")


SECTIONS = ["http", "instructions", "render", "icons", "sessions", "stores", "startup", "live"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=SECTIONS)
    parser.add_argument("--runs", type=int, default=3, help="wrk runs per figure")
    parser.add_argument("--duration", default="5s", help="each wrk run")
    parser.add_argument("--connections", type=int, nargs="*", default=[64, 16])
    parser.add_argument("--threading", choices=["pool", "pool-no-turbo", "per-connection"], default="pool",
                        help="libmicrohttpd's threading mode for the http section (pool: the server's default)")
    parser.add_argument("--callgrind-duration", default="4s", help="each callgrind run of the instructions section")
    parser.add_argument("--render-runs", type=int, default=2000)
    parser.add_argument("--icon-runs", type=int, default=100, help="runs per batch of the icon rounds")
    parser.add_argument("--memory-runs", type=int, default=3)
    parser.add_argument("--session-counts", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--startup-runs", type=int, default=11)
    parser.add_argument("--live-streams", type=int, default=10_000, help="follower streams of the live section")
    parser.add_argument("--live-taps", type=int, default=20, help="presenter taps timed in the live section")
    parser.add_argument("--live-saves", type=int, default=5, help="--watch saves timed in the live section")
    args = parser.parse_args()
    for tool in ("wrk", NGINX):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} is missing (make bench installs wrk and nginx-light)")
    sections = args.only or SECTIONS
    report = {"settings": {"runs": args.runs, "duration": args.duration, "threading": args.threading,
                           "cores": os.cpu_count(),
                           "machine": os.uname().release}}
    failed = []
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    for name in sections:
        log(f"bench: {name} ...")
        try:
            report[name] = globals()[f"section_{name}"](args)
        except Exception as error:  # noqa: BLE001 - one broken section must not lose the others
            failed.append(name)
            report.setdefault("errors", {})[name] = repr(error)
            log(f"bench: {name} failed: {error!r}")
        REPORT.write_text(json.dumps(report, indent=1))  # after each section, so nothing is lost
    print_report(report)
    for name in failed:
        print(f"\n{name}: FAILED ({report['errors'][name]})")
    over = [row["path"] for row in report.get("instructions", []) if row["over"]]
    if over:
        print(f"\ninstruction budget broken: {', '.join(over)} (PERFORMANCE.md, 'Instruction budgets')")
    print(f"\n(written to {REPORT.relative_to(ROOT)})")
    if failed or over:
        sys.exit(1)


if __name__ == "__main__":
    main()
