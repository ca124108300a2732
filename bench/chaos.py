"""make chaos: faults injected under load into several instances on one Redis behind nginx.

N `tabstage serve` instances (default 3) share one redis-server, round-robin behind nginx with
the sample config (examples/nginx/tabstage.conf, its ports replaced), all on free loopback
ports, started and stopped here by their own process ids. About 20 visitors, each with its own
session, tap tabs and post a counter's increment through nginx at a bounded pace
(one request every 0.05-0.15 s each). Then, one fault at a time, under that load: an instance
SIGKILLed and started again, Redis SIGKILLed and started again on its append-only file
(`appendfsync always`, so Redis itself keeps every write it answered), and Redis SIGSTOPped for
3 s.

Per fault it prints the requests answered, the errors by status, the changes acknowledged (a
post answered 303), the changes stored (each visitor's counter before and after the fault's
phase, against the posts acknowledged to it), the changes that landed though answered with an
error (after each error the visitor reloads its page until it is served and compares the
counter: the "reload to see" of a 503 that says the outcome is unknown), and the recovery time
(from the fault to the last request that failed). It exits 1 when an acknowledged change is
lost, or an error page said nothing changed and the change landed, or the service has not
recovered by the end of a phase.
"""
import argparse
import collections
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--binary", default=".build/release/tabstage")
parser.add_argument("--instances", type=int, default=int(os.environ.get("CHAOS_INSTANCES", "3")))
parser.add_argument("--visitors", type=int, default=int(os.environ.get("CHAOS_VISITORS", "20")))
parser.add_argument("--before", type=float, default=4, help="seconds of load before each fault")
parser.add_argument("--after", type=float, default=8, help="seconds of load after the fault is over")
parser.add_argument("--down", type=float, default=1, help="seconds a killed process stays down")
parser.add_argument("--pause", type=float, default=3, help="seconds Redis stays SIGSTOPped")
parser.add_argument("--keep", action="store_true", help="keep the work folder (logs) at the end")
args = parser.parse_args()

SAMPLE = "examples/nginx/tabstage.conf"
# The visitors' app: examples/coffee.json without its log-in tab, its counter's maximum raised
# to the format's highest (9999) so that no post is refused for the count.
APP_SOURCE = "examples/coffee.json"
PAGES = "/coffee/bottom"
COUNTER_TAB = "stamps"
UNKNOWN_OUTCOME = "may or may not have been saved"
BALANCE = re.compile(r'<p class="balance"[^>]*>(-?\d+)')
CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')
TAB = re.compile(r'data-tab="([a-z0-9-]+)"')


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port, path="/healthz", timeout=1.0):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("GET", path)
        status = connection.getresponse().status
        connection.close()
        return status
    except OSError:
        return None


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    sys.exit(f"chaos: {what} not within {seconds} s")


class Service:
    """A child process of ours, started again with the same arguments, signalled by its pid."""

    def __init__(self, name, argv, log):
        self.name, self.argv, self.log = name, argv, log
        self.process = None

    def start(self):
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(self.argv, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)

    def send(self, number):
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, number)

    def kill(self):
        self.send(signal.SIGKILL)
        if self.process:
            self.process.wait()

    def stop(self, number=signal.SIGTERM):
        if not self.process or self.process.poll() is not None:
            return
        self.send(signal.SIGCONT)
        self.send(number)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()


class Phase:
    """What happened between two pauses of the load; shared by the visitors, under `lock`."""

    def __init__(self, name):
        self.name = name
        self.lock = threading.Lock()
        self.requests = 0
        self.answered = 0
        self.errors = collections.Counter()  # status (or "no answer") -> count
        self.acknowledged = 0
        self.error_posts = collections.Counter()  # kind -> posts answered with it
        self.landed = collections.Counter()  # kind -> of those, found landed
        self.odd = []  # what should never be seen
        self.last_error = None
        self.fault_at = None

    def record(self, status, failed):
        with self.lock:
            self.requests += 1
            if status is not None:
                self.answered += 1
            if failed:
                self.errors["no answer" if status is None else status] += 1
                self.last_error = time.monotonic()


class Visitor(threading.Thread):
    def __init__(self, number, port, tabs, run):
        super().__init__(daemon=True)
        self.number, self.port, self.tabs, self.run_state = number, port, tabs, run
        self.cookie = ""
        self.token = ""
        self.known = None  # the counter as this visitor last saw it (or was told: 303)
        self.acknowledged = 0  # posts answered 303 in this phase
        self.connection = None
        self.busy = threading.Lock()
        self.random = random.Random(number)

    def request(self, method, path, body=None):
        """(status, text), or (None, reason) when no answer came."""
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            cookie = response.getheader("Set-Cookie")
            if cookie:
                self.cookie = cookie.split(";")[0]
            if response.getheader("Connection", "").lower() == "close":
                self.connection.close()
                self.connection = None
            return response.status, text
        except (OSError, http.client.HTTPException) as error:
            if self.connection:
                self.connection.close()
            self.connection = None
            return None, str(error)

    def read_counter(self, phase, give_up_after=60):
        """Reloads the home tab until it is served: the counter it shows."""
        deadline = time.monotonic() + give_up_after
        while time.monotonic() < deadline:
            status, text = self.request("GET", f"{PAGES}/{COUNTER_TAB}")
            if phase:
                phase.record(status, status != 200)
            match = BALANCE.search(text) if status == 200 else None
            if match:
                token = CSRF.search(text)
                if token:
                    self.token = token.group(1)
                return int(match.group(1))
            time.sleep(0.2)
        raise RuntimeError(f"visitor {self.number}: no page within {give_up_after} s")

    def tap(self, phase):
        tab = self.random.choice(self.tabs)
        status, text = self.request("GET", f"{PAGES}/{tab}")
        phase.record(status, status != 200)
        match = BALANCE.search(text) if status == 200 else None
        if match and int(match.group(1)) != self.known:
            with phase.lock:
                phase.odd.append(f"visitor {self.number} read {match.group(1)} after {self.known}")

    def post(self, phase):
        body = f"action=increment&csrf={self.token}"
        status, text = self.request("POST", f"{PAGES}/{COUNTER_TAB}/action", body)
        phase.record(status, status != 303)
        if status == 303:
            self.known += 1
            self.acknowledged += 1
            with phase.lock:
                phase.acknowledged += 1
            return
        kind = "no answer" if status is None else (
            "503 unknown outcome" if status == 503 and UNKNOWN_OUTCOME in text else str(status))
        # Reload until the page is served, as the error page says: did it land?
        shown = self.read_counter(phase)
        landed = shown - self.known
        with phase.lock:
            phase.error_posts[kind] += 1
            if landed in (0, 1):
                phase.landed[kind] += landed
            else:
                phase.odd.append(f"visitor {self.number}: counter {shown} after {self.known} and one post")
        self.known = shown

    def run(self):
        while not self.run_state["stop"]:
            self.run_state["gate"].wait()
            with self.busy:
                if self.run_state["stop"] or not self.run_state["gate"].is_set():
                    continue
                phase = self.run_state["phase"]
                if self.random.random() < 0.5:
                    self.tap(phase)
                else:
                    self.post(phase)
            time.sleep(self.random.uniform(0.05, 0.15))


def main():
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"chaos: no {binary} (make release)")
    for tool in ("/usr/bin/redis-server", "/usr/sbin/nginx"):
        if not os.access(tool, os.X_OK):
            sys.exit(f"chaos: {tool} is missing (apt-get install redis-server nginx-light)")
    work = tempfile.mkdtemp(prefix="tabstage-chaos.")
    services = []
    try:
        return drive(binary, work, services)
    finally:
        for service in reversed(services):
            service.stop(signal.SIGQUIT if service.name == "nginx" else signal.SIGTERM)
        if args.keep:
            print(f"chaos: logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def drive(binary, work, services):
    redis_port = free_port()
    os.makedirs(f"{work}/redis")
    redis = Service("redis", [
        "/usr/bin/redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--dir", f"{work}/redis",
        "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--daemonize", "no",
        "--protected-mode", "no"], f"{work}/redis.log")
    services.append(redis)
    redis.start()
    wait_for(lambda: redis_answers(redis_port), 20, "Redis")

    app = chaos_app(work)
    instances = []
    for number in range(args.instances):
        port = free_port()
        instance = Service(f"instance {number + 1}", [
            binary, "serve", "--quiet", "--host", "127.0.0.1", "--port", str(port),
            "--sessions", f"redis://127.0.0.1:{redis_port}", "--trust-proxy", "127.0.0.1",
            "--max-connections-per-ip", "1000", "--app", app], f"{work}/instance-{number + 1}.log")
        instance.port = port
        services.append(instance)
        instances.append(instance)
        instance.start()
    for instance in instances:
        wait_for(lambda: answers(instance.port) == 200, 30, f"{instance.name} on {instance.port}")

    nginx_port = free_port()
    os.makedirs(f"{work}/nginx")
    config = nginx_config(nginx_port, [instance.port for instance in instances])
    with open(f"{work}/nginx/nginx.conf", "w") as file:
        file.write(config)
    nginx = Service("nginx", ["/usr/sbin/nginx", "-p", f"{work}/nginx/", "-e", "error.log",
                              "-c", f"{work}/nginx/nginx.conf"], f"{work}/nginx.log")
    services.append(nginx)
    nginx.start()
    wait_for(lambda: answers(nginx_port) == 200, 20, "nginx")

    status, text = Visitor(-1, nginx_port, [], {}).request("GET", f"{PAGES}/{COUNTER_TAB}")
    tabs = sorted(set(TAB.findall(text))) if status == 200 else []
    if not tabs:
        sys.exit("chaos: the counter's page did not list the app's tabs")
    run = {"stop": False, "gate": threading.Event(), "phase": Phase("warm-up")}
    visitors = [Visitor(number, nginx_port, tabs, run) for number in range(args.visitors)]
    for visitor in visitors:
        visitor.read_counter(None)
        visitor.known = visitor.read_counter(None)
    for visitor in visitors:
        visitor.start()

    print(f"chaos: {args.instances} instances on one Redis (appendfsync always) behind nginx, "
          f"{args.visitors} visitors tapping and posting; per fault {args.before:g} s of load, the fault, "
          f"then {args.after:g} s")
    failed = False

    def kill_instance():
        instances[0].kill()
        time.sleep(args.down)
        instances[0].start()
        wait_for(lambda: answers(instances[0].port) is not None, 30, "the instance's restart")

    def kill_redis():
        redis.kill()
        time.sleep(args.down)
        redis.start()
        wait_for(lambda: redis_answers(redis_port), 30, "Redis's restart")

    def stop_redis():
        redis.send(signal.SIGSTOP)
        time.sleep(args.pause)
        redis.send(signal.SIGCONT)

    faults = [
        (f"instance 1 SIGKILLed, started again after {args.down:g} s", kill_instance),
        (f"Redis SIGKILLed, started again after {args.down:g} s", kill_redis),
        (f"Redis SIGSTOPped for {args.pause:g} s", stop_redis),
    ]
    for name, inject in faults:
        phase = Phase(name)
        start = {visitor.number: visitor.read_counter(None) for visitor in visitors}
        for visitor in visitors:
            visitor.known = start[visitor.number]
            visitor.acknowledged = 0
        run["phase"] = phase
        run["gate"].set()
        time.sleep(args.before)
        phase.fault_at = time.monotonic()
        inject()
        over = time.monotonic()
        time.sleep(args.after)
        run["gate"].clear()
        for visitor in visitors:
            with visitor.busy:
                pass
        healthy = sum(1 for instance in instances if answers(instance.port) == 200)
        time.sleep(0.5)
        end = {visitor.number: visitor.read_counter(None) for visitor in visitors}
        failed |= report(phase, visitors, start, end, over, healthy, len(instances))
    run["stop"] = True
    run["gate"].set()
    print("chaos: " + ("FAILED" if failed else "every acknowledged change kept, every fault recovered from"))
    return 1 if failed else 0


def chaos_app(work):
    with open(APP_SOURCE) as source:
        app = json.load(source)
    app["tabs"] = [tab for tab in app["tabs"] if not tab.get("requiresLogin")]
    for tab in app["tabs"]:
        if tab["id"] == COUNTER_TAB:
            tab["page"]["maximum"] = 9999
    path = f"{work}/chaos-app.json"
    with open(path, "w") as file:
        json.dump(app, file)
    return path


def redis_answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def nginx_config(port, upstreams):
    """The sample, listening on `port`, its upstream servers replaced by `upstreams`."""
    lines = []
    servers_done = False
    with open(SAMPLE) as sample:
        for line in sample.read().split("\n"):
            stripped = line.strip()
            if stripped.startswith("listen 127.0.0.1:8080"):
                line = line.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
            elif stripped.startswith("server 127.0.0.1:808"):
                if servers_done:
                    continue
                indent = line[: len(line) - len(line.lstrip())]
                line = "\n".join(f"{indent}server 127.0.0.1:{upstream};" for upstream in upstreams)
                servers_done = True
            lines.append(line)
    return "\n".join(lines)


def report(phase, visitors, start, end, over, healthy, instances):
    """Prints the phase's figures; true when it failed."""
    stored = sum(end[number] - start[number] for number in start)
    lost = 0  # acknowledged changes missing from a visitor's counter
    gone = 0  # changes a visitor saw landed (after an error) missing later
    late = 0  # changes that landed after the visitor looked
    for visitor in visitors:
        number = visitor.number
        missing_acknowledged = max(0, start[number] + visitor.acknowledged - end[number])
        lost += missing_acknowledged
        gone += max(0, visitor.known - end[number]) - missing_acknowledged
        late += max(0, end[number] - visitor.known)
    errors = ", ".join(f"{status}: {count}" for status, count in sorted(phase.errors.items(), key=str)) or "none"
    error_posts = sum(phase.error_posts.values())
    landed = sum(phase.landed.values())
    kinds = ", ".join(f"{kind}: {phase.landed[kind]} of {count}" for kind, count in sorted(phase.error_posts.items()))
    recovery = 0.0 if phase.last_error is None else max(0.0, phase.last_error - phase.fault_at)
    recovered = phase.last_error is None or phase.last_error < over + args.after - 2
    lied = sum(count for kind, count in phase.landed.items() if kind != "503 unknown outcome" and kind != "no answer"
               and kind.startswith("503"))
    print(f"\n{phase.name}")
    print(f"  requests answered: {phase.answered} of {phase.requests}; errors by status: {errors}")
    print(f"  changes acknowledged: {phase.acknowledged}; changes stored: {stored} "
          f"(every visitor's counter against its acknowledged posts: {lost} lost"
          + (f", {gone} seen landed then gone" if gone else "") + ")")
    print(f"  posts answered with an error: {error_posts}, landed though: {landed}"
          + (f" ({kinds})" if kinds else "") + (f"; landed after the visitor looked: {late}" if late else ""))
    if phase.last_error is None:
        print(f"  recovery: no error; instances answering /healthz: {healthy} of {instances}")
    else:
        print(f"  recovery: last error {recovery:.2f} s after the fault began, "
              f"{max(0.0, phase.last_error - over):.2f} s after it ended; "
              f"instances answering /healthz: {healthy} of {instances}")
    if phase.odd:
        print(f"  reads that showed another count than the visitor's last: {len(phase.odd)} "
              f"(first: {'; '.join(phase.odd[:3])})")
    failed = lost > 0 or gone > 0 or lied > 0 or not recovered or healthy < instances
    if lied:
        print(f"  FAILED: {lied} posts answered 503 (nothing changed) landed")
    if not recovered:
        print("  FAILED: still failing near the end of the phase")
    return failed


if __name__ == "__main__":
    sys.exit(main())
