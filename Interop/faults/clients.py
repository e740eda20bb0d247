"""Good clients of `kith serve` for the fault checks: REST pairing (stdlib http.client, from a chosen loopback
source address) and a signaling/relay WebSocket client (websockets), per docs/SERVER.md sections 2, 3 and 3.1."""
import asyncio
import http.client
import json
import secrets
import time

import websockets

from nodes import CheckFailed, expect

try:
    from websockets.asyncio.client import connect as ws_connect
except ImportError:  # websockets < 13
    ws_connect = websockets.connect

TIMEOUT = 30


def rest(port, method, path, body=None, source="127.0.0.1", timeout=TIMEOUT):
    """One REST request on its own connection from `source`; returns (status, parsed JSON or text)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        text = response.read().decode(errors="replace")
        try:
            return response.status, json.loads(text) if text else None
        except ValueError:
            return response.status, text
    finally:
        connection.close()


def new_code():
    return "f" + secrets.token_hex(6)


def pair(create_port, accept_port, client1, client2, source="127.0.0.1"):
    """Create (on one node), accept (on the same or another node) and check a pairing; returns the room id."""
    code = new_code()
    status, answer = rest(create_port, "POST", "/api/rooms", {"joinid": code, "client1": client1, "expiresInSeconds": 300}, source)
    expect(status == 201, f"create on port {create_port}: {status} {answer}")
    status, answer = rest(accept_port, "POST", "/api/rooms/accept", {"joinid": code, "client2": client2}, source)
    expect(status == 200 and isinstance(answer, dict) and "roomid" in answer, f"accept on port {accept_port}: {status} {answer}")
    room = answer["roomid"]
    status, answer = rest(create_port, "POST", "/api/rooms/check", {"joinid": code, "client1": client1}, source)
    expect(status == 200 and answer == {"roomid": room}, f"check on port {create_port}: {status} {answer}")
    return room


def timed_pair(port, source):
    """A create/accept/check round trip; returns (seconds, list of unexpected statuses)."""
    code, client1, client2 = new_code(), "g1-" + secrets.token_hex(4), "g2-" + secrets.token_hex(4)
    bad = []
    started = time.perf_counter()
    for method, path, body, wanted in (
            ("POST", "/api/rooms", {"joinid": code, "client1": client1, "expiresInSeconds": 300}, 201),
            ("POST", "/api/rooms/accept", {"joinid": code, "client2": client2}, 200),
            ("POST", "/api/rooms/check", {"joinid": code, "client1": client1}, 200)):
        try:
            status, answer = rest(port, method, path, body, source)
        except OSError as error:
            status, answer = f"{type(error).__name__}", str(error)
        if status != wanted:
            bad.append(f"{path} {status} {answer}")
    return time.perf_counter() - started, bad


class Peer:
    """A signaling WebSocket: JSON events and binary relay frames are read into separate queues."""

    def __init__(self, name, url, device, source="127.0.0.1"):
        self.name, self.url, self.device, self.source = name, url, device, source
        self.events = asyncio.Queue()
        self.frames = asyncio.Queue()
        self.closed = asyncio.Event()
        self.socket = None
        self.reader = None

    async def open(self):
        self.socket = await asyncio.wait_for(
            ws_connect(self.url, local_addr=(self.source, 0), max_size=2 ** 20, open_timeout=TIMEOUT), TIMEOUT)
        self.closed.clear()
        self.reader = asyncio.create_task(self._read())
        connected = await self.event("connected")
        return connected

    async def _read(self):
        try:
            async for message in self.socket:
                if isinstance(message, bytes):
                    await self.frames.put((time.perf_counter(), message))
                else:
                    event = json.loads(message)
                    event["_received"] = time.monotonic()  # when it arrived, for the figures
                    await self.events.put(event)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()

    async def send(self, message):
        await self.socket.send(json.dumps(message))

    async def event(self, wanted, timeout=TIMEOUT, tolerated=("Relay not active",)):
        """The next event of type `wanted` (a type or a tuple of types); other events are skipped except errors,
        which fail the check unless their text is `tolerated` (frames sent while a relay ended)."""
        wanted = (wanted,) if isinstance(wanted, str) else wanted
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CheckFailed(f"{self.name}: no {wanted} within {timeout} s")
            try:
                event = await asyncio.wait_for(self.events.get(), remaining)
            except asyncio.TimeoutError:
                raise CheckFailed(f"{self.name}: no {wanted} within {timeout} s") from None
            if event.get("type") in wanted:
                return event
            if event.get("type") == "error" and event.get("error") not in tolerated:
                raise CheckFailed(f"{self.name}: error while waiting for {wanted}: {event}")

    async def join(self, room):
        await self.send({"type": "join_room", "roomId": room, "deviceId": self.device})
        return await self.event("room_joined")

    async def start_relay(self):
        await self.send({"type": "relay_start"})

    def drain_frames(self):
        while not self.frames.empty():
            self.frames.get_nowait()

    async def frame(self, timeout=TIMEOUT):
        return await asyncio.wait_for(self.frames.get(), timeout)

    async def close(self):
        if self.socket is not None:
            try:
                await asyncio.wait_for(self.socket.close(), 10)
            except (asyncio.TimeoutError, OSError, websockets.WebSocketException):
                pass
        if self.reader is not None:
            self.reader.cancel()


async def relay_pair(one, two, room):
    """Both peers join `room` (one first: it is the initiator), ask for the relay and wait for relay_ready."""
    joined = await one.join(room)
    expect(joined.get("isInitiator") is True, f"{one.name} should be the initiator: {joined}")
    joined = await two.join(room)
    expect(joined.get("isInitiator") is False, f"{two.name} should be the responder: {joined}")
    await activate_relay(one, two)


async def activate_relay(one, two):
    await asyncio.gather(one.event("room_ready"), two.event("room_ready"))
    await one.start_relay()
    await two.start_relay()
    await asyncio.gather(one.event("relay_ready"), two.event("relay_ready"))


async def round_trip_frame(sender, receiver, sequence, timeout=TIMEOUT):
    """Sends one binary relay frame and waits for it on the other side; returns the one-way latency in seconds."""
    payload = b"\x01" + sequence.to_bytes(8, "big") + secrets.token_bytes(64)
    started = time.perf_counter()
    await sender.socket.send(payload)
    while True:
        arrived, frame = await receiver.frame(timeout)
        if frame == payload:
            return arrived - started


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]
