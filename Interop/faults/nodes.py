"""`kith serve` nodes and a throwaway PostgreSQL cluster for the fault checks (loopback only)."""
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLUSTER_SCRIPT = os.path.join(ROOT, "scripts", "postgres-cluster.sh")


class CheckFailed(Exception):
    """A fault check found the server misbehaving; the message says what and how to reproduce."""


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A throwaway PostgreSQL cluster (scripts/postgres-cluster.sh) that can be paused and resumed on its port."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="kith-faults-pg-")
        self.port = free_port()
        result = subprocess.run([CLUSTER_SCRIPT, "start", self.dir, str(self.port)], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            shutil.rmtree(self.dir, ignore_errors=True)
            raise CheckFailed(f"cannot start a PostgreSQL cluster: {result.stderr.strip()}")
        self.url = result.stdout.strip()

    def pause(self):
        subprocess.run([CLUSTER_SCRIPT, "pause", self.dir], check=True, capture_output=True, timeout=60)

    def resume(self):
        subprocess.run([CLUSTER_SCRIPT, "resume", self.dir, str(self.port)], check=True, capture_output=True, timeout=60)

    def stop(self):
        subprocess.run([CLUSTER_SCRIPT, "stop", self.dir], capture_output=True, timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


class Node:
    """One `kith serve` process on a free loopback port, with its own throwaway home."""

    def __init__(self, name, database_url, *extra):
        self.name = name
        self.home = tempfile.mkdtemp(prefix=f"kith-faults-{name}-")
        self.stderr_path = os.path.join(self.home, "serve.err")
        env = dict(os.environ, KITH_LOG_LEVEL=os.environ.get("KITH_LOG_LEVEL", "error"))
        with open(self.stderr_path, "w") as stderr:
            self.process = subprocess.Popen(
                [os.environ["KITH"], "--home", os.path.join(self.home, "kith"), "serve", "--port", "0",
                 "--database-url", database_url, *extra],
                stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
        line = self.process.stdout.readline()
        match = re.match(r"kith serve: listening on http://127\.0\.0\.1:(\d+) ", line)
        if not match:
            self.stop()
            raise CheckFailed(f"node {name} did not start: {line!r} {self.log_tail()}")
        self.port = int(match.group(1))
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/"

    def log_tail(self, lines=20):
        try:
            with open(self.stderr_path) as handle:
                return "".join(handle.readlines()[-lines:])
        except OSError:
            return ""

    def alive(self):
        return self.process.poll() is None

    def kill(self):
        """SIGKILL: no clean-up, no going-away frames, memberships left in PostgreSQL for the sweep."""
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        if self.process.stdout:
            self.process.stdout.close()
        shutil.rmtree(self.home, ignore_errors=True)


def wait_until(condition, timeout, interval=0.1):
    """Polls `condition` until it returns something truthy; returns it, or None after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval)
