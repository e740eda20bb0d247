#!/usr/bin/env python3
"""`kith chat` survives a dropped connection (docs/SERVER.md 3.1a): the joiner reaches `kith serve` through a TCP
proxy that the check cuts mid-chat; the joiner reconnects with backoff, both sides run the handshake again with the
same keys and the chat goes on both ways; Ctrl-D then ends it and the room is gone from the server. Loopback only,
standard library only."""
import os
import socket
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_chat import Reader, expect, expect_no_rooms, start_serve  # noqa: E402


class CuttableProxy:
    """Forwards every connection to 127.0.0.1:target; `cut()` closes the connections carried now."""

    def __init__(self, target):
        self.target = target
        self.lock = threading.Lock()
        self.connections = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                return
            with self.lock:
                self.connections.append((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _close(*sockets):
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _pipe(self, source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        self._close(source, sink)

    def cut(self):
        with self.lock:
            connections, self.connections = self.connections, []
        for pair in connections:
            self._close(*pair)
        return len(connections)


def main():
    kith = os.environ["KITH"]
    env = dict(os.environ, KITH_LOG_LEVEL="error")
    with tempfile.TemporaryDirectory() as work:
        server, port = start_serve(kith, work, env)
        processes = [server]
        try:
            proxy = CuttableProxy(port)

            def start(args, via):
                process = subprocess.Popen([kith, "chat", *args, "--server", f"http://127.0.0.1:{via}"], stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                processes.append(process)
                return process, Reader(process.stdout), Reader(process.stderr)

            def say(process, line):
                process.stdin.write(line + "\n")
                process.stdin.flush()

            creator, creator_out, creator_err = start(["create", "--no-qr"], port)
            code = creator_out.wait_for(r"^Join code: (\d{8})$").group(1)
            joiner, joiner_out, joiner_err = start(["join", code], proxy.port)
            sas = creator_err.wait_for(r"Compare this code with the other person: (\d{4} \d{4})").group(1)
            joiner_err.wait_for(r"Compare this code with the other person: " + sas)
            say(creator, "before the drop")
            joiner_out.wait_for(r"^them> before the drop$")

            expect(proxy.cut() >= 1, "the joiner's connection did not go through the proxy")
            joiner_err.wait_for(r"connection lost, reconnecting", 60)
            joiner_err.wait_for(r"^kith: reconnected$", 180)
            joiner_err.wait_for(r"reconnected to the same person", 180)
            creator_err.wait_for(r"the other person's connection dropped; waiting", 180)
            creator_err.wait_for(r"reconnected to the same person", 180)

            say(creator, "after the drop")
            joiner_out.wait_for(r"^them> after the drop$")
            say(joiner, "still here")
            creator_out.wait_for(r"^them> still here$")
            joiner.stdin.close()
            creator_err.wait_for(r"them ended the chat")
            expect(joiner.wait(timeout=60) == 0, "joiner did not exit cleanly")
            expect(creator.wait(timeout=60) == 0, "creator did not exit cleanly")
            for lines in (creator_out.lines, joiner_out.lines):
                shown = [line for line in lines if line.startswith("them> ")]
                expect(len(shown) == len(set(shown)), f"a line arrived twice: {lines}")
            expect_no_rooms(os.path.join(work, "srv", "rendezvous.sqlite"), "after the reconnected chat")
            print("chat reconnect ok: the joiner's connection cut mid-chat, reconnected with the same keys, lines both ways after it, clean end, room gone")
        finally:
            for process in processes:
                if process.poll() is None:
                    process.kill()


if __name__ == "__main__":
    main()
