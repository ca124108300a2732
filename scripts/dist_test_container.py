"""scripts/dist-test, part 4: the Containerfile reads as one, names this version's tarball, and
its ENTRYPOINT and CMD, run as nobody in its WORKDIR, serve until its HEALTHCHECK passes."""

import fnmatch
import json
import re
import shutil
import subprocess
import time
from pathlib import Path

from dist_test_support import REPOSITORY, fail, request, say, start, stop

CONTAINERFILE = REPOSITORY / "Containerfile"
INSTRUCTIONS = {"FROM", "ARG", "ADD", "COPY", "RUN", "USER", "WORKDIR", "VOLUME", "EXPOSE", "HEALTHCHECK",
                "ENTRYPOINT", "CMD", "ENV", "LABEL", "STOPSIGNAL", "SHELL", "ONBUILD"}
DURATION = re.compile(r"^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$")


def containerfile(text):
    """(instruction, arguments) pairs, continuation lines joined, comments left out."""
    lines, pending = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1].rstrip() + " "
            continue
        lines.append(pending + line)
        pending = ""
    if pending:
        fail("the Containerfile ends in a continued line")
    result = []
    for line in lines:
        word, _, rest = line.partition(" ")
        if word.upper() not in INSTRUCTIONS:
            fail(f"Containerfile: unknown instruction '{word}'")
        result.append((word.upper(), rest.strip()))
    return result


def exec_form(instruction, text):
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        fail(f"Containerfile: {instruction} is not a JSON array of strings: {error}")
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        fail(f"Containerfile: {instruction} is not a JSON array of strings")
    return value


def check_the_containerfile(name):
    steps = containerfile(CONTAINERFILE.read_text())
    if steps[0][0] != "FROM" or not re.match(r"^debian:[\w.-]+-slim$", steps[0][1]):
        fail(f"Containerfile: the first step is '{steps[0]}', not FROM debian:...-slim")
    values = {}
    for instruction, text in steps:
        if instruction == "ARG":
            key, _, default = text.partition("=")
            values[key] = default
        values.setdefault(instruction, []).append(text)

    def substitute(text):
        return re.sub(r"\$\{(\w+)\}", lambda match: values[match.group(1)], text)

    if f"tabstage-{values['VERSION']}-linux-{values['ARCH']}" != name:
        fail(f"Containerfile: ARG VERSION and ARCH name tabstage-{values['VERSION']}-linux-{values['ARCH']},"
             f" not {name} (VERSION or the machine changed)")
    source, destination = substitute(values["ADD"][0]).split()
    if source != f"dist/{name}.tar.gz" or destination != "/opt/":
        fail(f"Containerfile: ADD {source} {destination} is not this version's tarball into /opt/")
    ignored = [line for line in (REPOSITORY / ".dockerignore").read_text().splitlines()
               if line and not line.startswith("#")]
    if not any(line.startswith("!") and fnmatch.fnmatch(source, line[1:]) for line in ignored):
        fail(f".dockerignore leaves {source} out of the build context")
    if f"ln -s /opt/{name}/tabstage /usr/local/bin/tabstage" not in substitute(values["RUN"][0]):
        fail("Containerfile: the RUN step does not link /usr/local/bin/tabstage to the unpacked binary")
    user = values["USER"][-1]
    if user in ("root", "0"):
        fail("Containerfile: runs as root")
    healthcheck = values["HEALTHCHECK"][0].split(" CMD ", 1)
    for flag in healthcheck[0].split():
        key, _, value = flag.partition("=")
        if key not in ("--interval", "--timeout", "--start-period", "--start-interval", "--retries"):
            fail(f"Containerfile: HEALTHCHECK has no flag {key}")
        if (key == "--retries" and not value.isdigit()) or (key != "--retries" and not DURATION.match(value)):
            fail(f"Containerfile: HEALTHCHECK {flag} is not a valid value")
    check = exec_form("HEALTHCHECK CMD", healthcheck[1])
    entrypoint = exec_form("ENTRYPOINT", values["ENTRYPOINT"][-1])
    command = exec_form("CMD", values["CMD"][-1])
    port = int(values["EXPOSE"][0])
    volume = Path(values["VOLUME"][0])
    workdir = Path(values["WORKDIR"][-1])

    # The image's command, as the image runs it: as a user of its own (nobody here), in its
    # WORKDIR, where the volume is; "tabstage" is the binary its RUN step links.
    for folder in {volume, workdir}:
        folder.mkdir(parents=True, exist_ok=True)
        shutil.chown(folder, "nobody", "nogroup")
    resolve = {"tabstage": "/usr/local/bin/tabstage"}
    log = volume.parent / "container.log"
    arguments = [resolve.get(entrypoint[0], entrypoint[0])] + entrypoint[1:] + command
    server = start(arguments, log, cwd=workdir, user="nobody", group="nogroup", extra_groups=[])
    try:
        waited = time.monotonic()
        while subprocess.run([resolve.get(check[0], check[0])] + check[1:], capture_output=True).returncode != 0:
            if server.poll() is not None or time.monotonic() - waited > 20:
                fail("the Containerfile's HEALTHCHECK never passed")
            time.sleep(0.05)
        status = request(port, "/restaurant/bottom/home")[0]
        if status != 200:
            fail(f"the image's command answered {status} on its EXPOSEd port {port}")
    finally:
        stop(server, log)
    if not any(volume.glob("*.sqlite")):
        fail(f"the image's command kept no sessions in its VOLUME {volume}")
    say(f"the Containerfile's ENTRYPOINT and CMD, run as nobody for its USER {user}: its HEALTHCHECK passes,"
        f" port {port} answers, sessions in its VOLUME {volume}")
