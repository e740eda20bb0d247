#!/usr/bin/env python3
"""The bad client of scenario 3: from 127.0.0.1 only, as fast as its threads can, for a fixed time, against one
`kith serve` port: malformed JSON, oversized bodies, wrong methods, unknown routes, garbage request heads, wrong join
codes, and WebSockets that send junk frames (invalid JSON, unknown types, binary junk, a reserved opcode).
Each request is a new connection. Prints one JSON object of counts (by answer) when the time is up.

  flood.py PORT SECONDS [THREADS]
"""
import base64
import json
import os
import socket
import sys
import threading
import time

SOURCE = "127.0.0.1"
ANSWER_WAIT = 0.2
OVERSIZED = b"{" + b" " * (100 * 1024) + b"}"


def request(method, path, body=b"", extra=""):
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n{extra}\r\n")
    return head.encode() + body


REQUESTS = [
    request("POST", "/api/rooms", b'{"joinid": "123456", "client1": '),
    request("POST", "/api/rooms/accept", b'{"joinid": [[[[[[1]]]]]], "client2": 1e999}'),
    request("POST", "/api/rooms", OVERSIZED),
    request("PUT", "/api/rooms"),
    request("PATCH", "/api/rooms/check", b"{}"),
    request("GET", "/no/such/route/" + "x" * 200),
    request("POST", "/api/rooms/accept", b'{"joinid": "999999", "client2": "guess"}'),
    b"\x00\x01\x02 junk that is no request at all\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: " + b"h" * 20000 + b"\r\n\r\n",
]


def frame(opcode, payload):
    """A masked client frame (RFC 6455), mask 0 so the payload goes as it is."""
    length = len(payload)
    if length < 126:
        header = bytes([0x80 | opcode, 0x80 | length])
    else:
        header = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
    return header + b"\x00\x00\x00\x00" + payload


def junk_websocket(port):
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = (f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
    junk = [frame(1, b"not json"), frame(1, b'{"type":"no_such_type"}'), frame(2, os.urandom(64)),
            frame(1, json.dumps({"type": "join_room", "roomId": "nope"}).encode()), frame(1, b"{" * 40),
            frame(2, b"\x01" + os.urandom(300)), frame(3, b"reserved opcode")]
    return upgrade + b"".join(junk)


def send(port, payload):
    """Sends one payload on a new connection; the answer's status, "closed", or "no answer" after ANSWER_WAIT seconds
    (a head that is no HTTP is held by the server until its 10 s request-head timeout: the flood does not wait)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(SOURCE, 0)) as connection:
        try:
            connection.sendall(payload)
        except OSError:
            pass  # the server may close an oversized request before it is all sent
        connection.settimeout(ANSWER_WAIT)
        try:
            answer = connection.recv(4096)
        except TimeoutError:
            return "no answer"
        parts = answer.split(b" ", 2)
        return parts[1].decode(errors="replace") if len(parts) > 1 and parts[0].startswith(b"HTTP/") else "closed"


def worker(port, deadline, counts, lock, offset):
    index = offset
    while time.monotonic() < deadline:
        kind = index % (len(REQUESTS) + 1)
        index += 1
        payload = junk_websocket(port) if kind == len(REQUESTS) else REQUESTS[kind]
        try:
            outcome = ("ws " if kind == len(REQUESTS) else "") + send(port, payload)
        except OSError as error:
            outcome = type(error).__name__
        with lock:
            counts[outcome] = counts.get(outcome, 0) + 1


def main():
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    if not 1 <= seconds <= 3600 or not 1 <= threads <= 32:
        raise SystemExit("usage: flood.py PORT SECONDS(1-3600) [THREADS(1-32)]")
    counts, lock = {}, threading.Lock()
    started = time.monotonic()
    deadline = started + seconds
    workers = [threading.Thread(target=worker, args=(port, deadline, counts, lock, offset), daemon=True) for offset in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(seconds + 30)
    elapsed = time.monotonic() - started
    total = sum(counts.values())
    print(json.dumps({"requests": total, "per_second": round(total / elapsed, 1), "answers": counts}))


if __name__ == "__main__":
    main()
