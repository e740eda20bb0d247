"""Starts `kith serve` on a free loopback port with a throwaway home, for the push interop checks."""
import os
import re
import subprocess
import tempfile


class Server:
    def __init__(self, *extra):
        self.home = tempfile.TemporaryDirectory()
        env = dict(os.environ, KITH_LOG_LEVEL="error")
        self.process = subprocess.Popen(
            [os.environ["KITH"], "--home", self.home.name, "serve", "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.process.stdout.readline()
        match = re.match(r"kith serve: listening on http://127\.0\.0\.1:(\d+) ", line)
        if not match:
            self.stop()
            raise SystemExit(f"FAILED: kith serve did not start: {line!r} {self.process.stderr.read()}")
        self.port = int(match.group(1))
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.home.cleanup()


def expect(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")
