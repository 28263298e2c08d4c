#!/usr/bin/env python3
"""Runs processes for a node test script: one JSON request per line on stdin, one
JSON answer per line on stdout, each request in a thread of its own.

Why: a test script that holds DuckDB (and chDB) and thousands of answers has an
address space of a gigabyte or more, and every child it spawns forks all of it:
on the 2-core CI machine that made each `quarry query` of the engine corpus cost
about 100 ms in the runner for 25 ms of quarry. This process stays small, and
Python's subprocess starts children with vfork.

Request:  {"id": 1, "argv": ["quarry", "query", ...], "env": {...},
           "timeout_ms": 60000}
Answer:   {"id": 1, "status": 0, "signal": null, "stdout": "<base64>",
           "stderr": "<base64>"}  or  {"id": 1, "error": "why it did not start"}
A child still running at its timeout is killed (SIGKILL), as node's kill would.
"""

import base64
import json
import signal
import subprocess
import sys
import threading

write_lock = threading.Lock()


def answer(reply):
    line = json.dumps(reply) + "\n"
    with write_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def encode(data):
    return base64.b64encode(data or b"").decode("ascii")


def run(request):
    reply = {"id": request["id"]}
    timeout = request.get("timeout_ms")
    try:
        done = subprocess.run(request["argv"], env=request.get("env"),
                              stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=None if timeout is None else timeout / 1000)
        code = done.returncode
        reply["status"] = code if code >= 0 else None
        reply["signal"] = signal.Signals(-code).name if code < 0 else None
        reply["stdout"] = encode(done.stdout)
        reply["stderr"] = encode(done.stderr)
    except subprocess.TimeoutExpired as e:
        reply.update(status=None, signal="SIGKILL", stdout=encode(e.stdout), stderr=encode(e.stderr))
    except OSError as e:
        reply["error"] = f"{request['argv'][0]}: {e.strerror or e}"
    answer(reply)


def main():
    for line in sys.stdin:
        if line.strip():
            threading.Thread(target=run, args=(json.loads(line),)).start()


if __name__ == "__main__":
    main()
