"""The soak's driver (see bench/soak.sh): wrk, idle half-open sockets, a latency probe, VmRSS."""
import argparse
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

parser = argparse.ArgumentParser()
for name in ("port", "pid", "seconds", "connections", "idle", "timeout"):
    parser.add_argument("--" + name, type=int, required=True)
parser.add_argument("--work", required=True)
args = parser.parse_args()
base = f"http://127.0.0.1:{args.port}"


def wait_up():
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit("soak: the server did not come up")


def rss_kb():
    with open(f"/proc/{args.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


wait_up()
# A real session: the cookie wrk sends makes every page read and change stored state.
with urllib.request.urlopen(base + "/restaurant/bottom/home", timeout=5) as response:
    cookie = response.headers["Set-Cookie"].split(";")[0]

lua = f"""
local paths = {{"/restaurant/bottom/home", "/restaurant/bottom/wallet", "/vertical/vertical/discover",
  "/restaurant/events", "/icons/home/selected@2x.png", "/icons/wallet/unselected@3x.png",
  "/icons/apps/restaurant/home/selected@2x.png?tint=FF9500", "/icons/news/selected@1x.png?tint=336699"}}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1], {{["Cookie"] = "{cookie}"}})
end
"""
with open(args.work + "/soak.lua", "w") as script:
    script.write(lua)

stop = threading.Event()
idle_closed = []  # seconds from the partial request to the server's close
idle_lock = threading.Lock()


def hold_idle():
    """Keeps `idle` half-open connections: each sends part of a request, then waits to be closed."""
    sockets = {}

    def open_one():
        sock = socket.socket()
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", args.port))
            sock.sendall(b"GET /restaurant/bottom/home HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError:
            sock.close()
            return
        sock.setblocking(False)
        sockets[sock] = time.monotonic()

    for _ in range(args.idle):
        open_one()
    while not stop.is_set():
        time.sleep(0.2)
        for sock, opened in list(sockets.items()):
            try:
                data = sock.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data == b"" or data:
                # Closed (or answered with a timeout error): the server let it go. Open another.
                with idle_lock:
                    idle_closed.append(time.monotonic() - opened)
                sock.close()
                del sockets[sock]
                if not stop.is_set():
                    open_one()
    for sock in sockets:
        sock.close()


probe_ms = []
probe_failures = []
rss = []


def probe():
    while not stop.is_set():
        for path in ("/healthz", "/restaurant/bottom/news"):
            started = time.monotonic()
            try:
                request = urllib.request.Request(base + path, headers={"Cookie": cookie})
                with urllib.request.urlopen(request, timeout=10) as response:
                    response.read()
                    if response.status != 200:
                        probe_failures.append(f"{path}: {response.status}")
            except OSError as error:
                probe_failures.append(f"{path}: {error}")
            probe_ms.append((time.monotonic() - started) * 1000)
        rss.append(rss_kb())
        stop.wait(1)


threads = [threading.Thread(target=hold_idle), threading.Thread(target=probe)]
for thread in threads:
    thread.start()
wrk = subprocess.run(
    ["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--timeout", "10s", "--latency",
     "-s", args.work + "/soak.lua", base],
    capture_output=True, text=True)
stop.set()
for thread in threads:
    thread.join()

print(wrk.stdout)
non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", wrk.stdout)
socket_errors = re.search(r"Socket errors: (.*)", wrk.stdout)
requests = re.search(r"(\d+) requests in", wrk.stdout)
failed = int(non_2xx.group(1)) if non_2xx else 0
thirds = [rss[len(rss) // 10], rss[len(rss) // 2], rss[-1]] if rss else [-1, -1, -1]
p50 = statistics.median(probe_ms) if probe_ms else -1
p99 = sorted(probe_ms)[int(len(probe_ms) * 0.99) - 1] if probe_ms else -1
print(f"soak: {args.seconds}s, wrk {args.connections} connections, {args.idle} idle half-open sockets, "
      f"connection timeout {args.timeout}s")
print(f"soak: wrk requests {requests.group(1) if requests else '?'}, non-2xx/3xx {failed}, "
      f"socket errors: {socket_errors.group(1) if socket_errors else 'none'}")
print(f"soak: probe {len(probe_ms)} requests, median {p50:.1f} ms, p99 {p99:.1f} ms, max {max(probe_ms):.1f} ms, "
      f"failures {len(probe_failures)}")
closed = sorted(idle_closed)
if closed:
    print(f"soak: idle sockets closed by the server: {len(closed)}, after median {statistics.median(closed):.1f} s")
else:
    print("soak: idle sockets closed by the server: 0")
print(f"soak: VmRSS start {thirds[0]} kB, middle {thirds[1]} kB, end {thirds[2]} kB")

problems = []
if failed or socket_errors:
    problems.append("wrk saw failed requests")
if probe_failures:
    problems.append("the probe failed: " + "; ".join(probe_failures[:3]))
if not closed:
    problems.append("no idle connection was timed out")
if p99 > 1000:
    problems.append("the probe was slow (p99 over 1 s)")
if thirds[2] > thirds[1] * 1.25 + 4096:
    problems.append("memory kept growing after the middle of the run")
if problems:
    sys.exit("soak: FAILED: " + "; ".join(problems))
print("soak: ok")
