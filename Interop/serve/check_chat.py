#!/usr/bin/env python3
"""`kith chat` between two real processes through a real `kith serve` (docs/SERVER.md 3.2): the
join code, the same 8-digit authentication string on both sides, lines both ways with the peer's
control characters escaped on screen, Ctrl-D (end of input) ends the chat on both sides, nothing
written to either home. Loopback only, standard library only."""
import os
import re
import subprocess
import sys
import tempfile
import threading
import time


def expect(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


class Reader:
    """Collects a stream's lines in a thread so the test can wait for one without blocking."""

    def __init__(self, stream):
        self.lines = []
        self.lock = threading.Lock()
        threading.Thread(target=self._run, args=(stream,), daemon=True).start()

    def _run(self, stream):
        for line in stream:
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern, seconds=30):
        deadline = time.time() + seconds
        while time.time() < deadline:
            with self.lock:
                for line in self.lines:
                    match = re.search(pattern, line)
                    if match:
                        return match
            time.sleep(0.05)
        with self.lock:
            raise SystemExit(f"FAILED: no line matching {pattern!r} in {self.lines!r}")


def expect_no_rooms(database, when):
    """Both `kith chat` processes purge their device ids when the chat ends (docs/SERVER.md 3.1a)."""
    import sqlite3
    connection = sqlite3.connect(database)
    try:
        rooms = connection.execute("SELECT COUNT(*) FROM rooms").fetchone()[0]
        pendings = connection.execute("SELECT COUNT(*) FROM pendings").fetchone()[0]
    finally:
        connection.close()
    expect(rooms == 0 and pendings == 0, f"{when}: the server still holds {rooms} room(s) and {pendings} pending code(s)")


def start_serve(kith, work, env):
    """`kith serve` on a free port with its home in `work`/srv: the process and its port."""
    server = subprocess.Popen([kith, "--home", os.path.join(work, "srv"), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return server, int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))


def main():
    kith = os.environ["KITH"]
    env = dict(os.environ, KITH_LOG_LEVEL="error")
    with tempfile.TemporaryDirectory() as work:
        server, port = start_serve(kith, work, env)
        processes = [server]
        try:
            url = f"http://127.0.0.1:{port}"
            homes = [os.path.join(work, name) for name in ("a", "b")]

            def start(args):
                process = subprocess.Popen([kith, "chat", *args, "--server", url], stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                processes.append(process)
                return process, Reader(process.stdout), Reader(process.stderr)

            creator, creator_out, creator_err = start(["create", "--no-qr", "--home", homes[0]])
            code = creator_out.wait_for(r"^Join code: (\d{8})$").group(1)
            joiner, joiner_out, joiner_err = start(["join", code, "--home", homes[1]])
            sas_a = creator_err.wait_for(r"Compare this code with the other person: (\d{4} \d{4})").group(1)
            sas_b = joiner_err.wait_for(r"Compare this code with the other person: (\d{4} \d{4})").group(1)
            expect(sas_a == sas_b, f"authentication strings differ: {sas_a} / {sas_b}")

            joiner.stdin.write("hello \x1b[2J world\n")
            joiner.stdin.flush()
            creator_out.wait_for(r"^them> hello \\u\{1B\}\[2J world$")
            creator.stdin.write("hi back, ünïcödé\n")
            creator.stdin.flush()
            joiner_out.wait_for(r"^them> hi back, ünïcödé$")
            creator.stdin.close()
            joiner_err.wait_for(r"them ended the chat")
            expect(creator.wait(timeout=30) == 0, "creator did not exit cleanly")
            expect(joiner.wait(timeout=30) == 0, "joiner did not exit cleanly")
            for home in homes:
                expect(not os.path.exists(home), f"an anonymous chat wrote {home}")
            expect_no_rooms(os.path.join(work, "srv", "rendezvous.sqlite"), "after the anonymous chat")

            # Two contacts with --keep: under their identities, each keeps its own lines as direct messages.
            env["KITH_PASSPHRASE"] = "interop test passphrase"
            run = lambda *args: subprocess.run([kith, *args], check=True, capture_output=True, text=True, env=env).stdout
            for home in homes:
                run("init", "--home", home)
            run("contact", "add", "--home", homes[1], "--name", "Alice", run("card", "--home", homes[0], "--name", "Alice").strip())
            run("contact", "add", "--home", homes[0], "--name", "Bob", run("card", "--home", homes[1], "--name", "Bob").strip())
            with open(os.path.join(work, "handover.txt"), "w") as handover:
                handover.write(run("prekeys", "export", "--home", homes[1], "Alice", "--count", "5"))
            run("prekeys", "import", "--home", homes[0], "Bob", os.path.join(work, "handover.txt"))
            creator, creator_out, creator_err = start(["create", "--no-qr", "--keep", "--home", homes[0]])
            code = creator_out.wait_for(r"^Join code: (\d{8})$").group(1)
            joiner, joiner_out, joiner_err = start(["join", code, "--keep", "--home", homes[1]])
            creator_err.wait_for(r"Bob is your contact")
            joiner_err.wait_for(r"Alice is your contact")
            creator.stdin.write("a line worth keeping\n")
            creator.stdin.close()
            joiner_out.wait_for(r"^Alice> a line worth keeping$")
            joiner_err.wait_for(r"Alice ended the chat")
            expect(creator.wait(timeout=30) == 0 and joiner.wait(timeout=30) == 0, "keep chat did not exit cleanly")
            expect_no_rooms(os.path.join(work, "srv", "rendezvous.sqlite"), "after the kept chat")
            kept = run("log", "--home", homes[0], "--with", "Bob")
            expect("a line worth keeping" in kept, f"the line was not kept as a direct message: {kept}")
            print(f"chat CLI ok: join code, matching authentication string {sas_a}, lines both ways, escape sequence shown escaped, clean end, nothing stored; with --keep between contacts the line is kept as a direct message")
        finally:
            for process in processes:
                if process.poll() is None:
                    process.kill()


if __name__ == "__main__":
    sys.exit(main())
