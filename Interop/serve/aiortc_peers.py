#!/usr/bin/env python3
"""Two real WebRTC peers (aiortc) act as Inviso clients against `kith serve` (issue 14, item 7).

Alice creates a pairing over REST, Bob accepts it, both join the room over WebSocket, Alice (the
initiator) sends the offer, Bob the answer, and every ICE candidate travels separately as an
Inviso `ice_candidate` message (stripped from the SDP: aiortc does not trickle). Then the ordered
"chat" DataChannel opens and a message goes each way. Loopback only: no ICE servers, host
candidates on 127.0.0.1 only (aioice's interface discovery is pinned to loopback)."""
import asyncio
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import aioice.ice
from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription
from aiortc.sdp import candidate_from_sdp, candidate_to_sdp
import websockets

# Host candidates on loopback only: nothing leaves 127.0.0.1.
aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"] if use_ipv4 else []

DEADLINE_SECONDS = 45


def fail(message):
    raise SystemExit(f"FAILED: {message}")


def rest(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def split_candidates(sdp):
    """The SDP without its a=candidate lines, and those candidates as Inviso `candidate` objects."""
    kept, candidates = [], []
    mid, index = None, -1
    for line in sdp.splitlines():
        if line.startswith("m="):
            index += 1
            mid = None
        if line.startswith("a=mid:"):
            mid = line[len("a=mid:"):]
        if line.startswith("a=candidate:"):
            candidates.append((line[len("a="):], index))
            continue
        if line.startswith("a=end-of-candidates"):
            continue
        kept.append(line)
    objects = [{"candidate": text, "sdpMid": mid, "sdpMLineIndex": idx} for text, idx in candidates]
    return "\r\n".join(kept) + "\r\n", objects


class Peer:
    def __init__(self, name, url, room, device):
        self.name, self.url, self.room, self.device = name, url, room, device
        self.pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
        self.received = asyncio.get_running_loop().create_future()
        self.channel_open = asyncio.get_running_loop().create_future()
        self.relayed = {"webrtc_offer": 0, "webrtc_answer": 0, "ice_candidate": 0}
        self.pending_candidates = []

    async def send(self, message):
        await self.ws.send(json.dumps(message))

    async def expect(self, wanted):
        while True:
            message = json.loads(await self.ws.recv())
            if message.get("type") == wanted:
                return message
            if message.get("type") == "error":
                fail(f"{self.name}: server error {message}")

    async def join(self):
        self.ws = await websockets.connect(self.url, max_size=65536)
        connected = await self.expect("connected")
        if connected.get("server") != "WebRTC P2P Signaling Server":
            fail(f"{self.name}: unexpected connected message {connected}")
        await self.send({"type": "join_room", "roomId": self.room, "deviceId": self.device})
        joined = await self.expect("room_joined")
        return joined

    async def send_local_description(self, kind):
        sdp, candidates = split_candidates(self.pc.localDescription.sdp)
        if not candidates:
            fail(f"{self.name}: no ICE candidates gathered")
        for candidate in candidates:
            address = candidate["candidate"].split()[4]
            if address != "127.0.0.1":
                fail(f"{self.name}: non-loopback candidate {address}")
        await self.send({"type": kind, "sdp": sdp})
        for candidate in candidates:
            await self.send({"type": "ice_candidate", "candidate": candidate})

    async def add_remote_candidate(self, candidate):
        parsed = candidate_from_sdp(candidate["candidate"].split(":", 1)[1])
        parsed.sdpMid = candidate.get("sdpMid")
        parsed.sdpMLineIndex = candidate.get("sdpMLineIndex")
        await self.pc.addIceCandidate(parsed)

    async def pump(self, room):
        """Handles relayed signaling until the data channel carried its message."""
        while not self.received.done():
            message = json.loads(await self.ws.recv())
            kind = message.get("type")
            if kind in self.relayed:
                if message.get("roomId") != room:
                    fail(f"{self.name}: relayed message for another room")
                self.relayed[kind] += 1
            if kind == "webrtc_offer":
                await self.pc.setRemoteDescription(RTCSessionDescription(sdp=message["sdp"], type="offer"))
                for candidate in self.pending_candidates:
                    await self.add_remote_candidate(candidate)
                self.pending_candidates = []
                await self.pc.setLocalDescription(await self.pc.createAnswer())
                await self.send_local_description("webrtc_answer")
            elif kind == "webrtc_answer":
                await self.pc.setRemoteDescription(RTCSessionDescription(sdp=message["sdp"], type="answer"))
                for candidate in self.pending_candidates:
                    await self.add_remote_candidate(candidate)
                self.pending_candidates = []
            elif kind == "ice_candidate":
                if self.pc.remoteDescription is None:
                    self.pending_candidates.append(message["candidate"])
                else:
                    await self.add_remote_candidate(message["candidate"])
            elif kind == "error":
                fail(f"{self.name}: server error {message}")


async def scenario(base, ws_url):
    code = str(secrets.randbelow(10**8)).zfill(8)
    alice_device, bob_device = "aiortc-" + secrets.token_hex(8), "aiortc-" + secrets.token_hex(8)
    status, text = rest(base, "POST", "/api/rooms", {"joinid": code, "client1": alice_device, "expiresInSeconds": 300})
    if status != 201:
        fail(f"create answered {status} {text}")
    status, text = rest(base, "POST", "/api/rooms/accept", {"joinid": code, "client2": bob_device})
    if status != 200:
        fail(f"accept answered {status} {text}")
    room = json.loads(text)["roomid"]
    status, text = rest(base, "POST", "/api/rooms/check", {"joinid": code, "client1": alice_device})
    if status != 200 or json.loads(text)["roomid"] != room:
        fail(f"check answered {status} {text}")

    alice = Peer("alice", ws_url, room, alice_device)
    bob = Peer("bob", ws_url, room, bob_device)
    joined = await alice.join()
    if not joined.get("isInitiator") or joined.get("ready"):
        fail(f"alice: unexpected room_joined {joined}")
    joined = await bob.join()
    if joined.get("isInitiator") or not joined.get("ready"):
        fail(f"bob: unexpected room_joined {joined}")
    await bob.expect("room_ready")
    ready = await alice.expect("room_ready")
    if not ready.get("isInitiator"):
        fail("alice: room_ready does not make her the initiator")

    # Alice (initiator) opens the ordered "chat" channel and offers.
    channel = alice.pc.createDataChannel("chat", ordered=True)

    @channel.on("open")
    def on_open():
        channel.send("hello from alice")

    @channel.on("message")
    def on_alice_message(message):
        if not alice.received.done():
            alice.received.set_result(message)

    @bob.pc.on("datachannel")
    def on_datachannel(remote):
        if remote.label != "chat" or not remote.ordered:
            fail(f"bob: unexpected channel {remote.label} ordered={remote.ordered}")

        @remote.on("message")
        def on_bob_message(message):
            if not bob.received.done():
                bob.received.set_result(message)
                remote.send("hello from bob")

    await alice.pc.setLocalDescription(await alice.pc.createOffer())
    await alice.send_local_description("webrtc_offer")
    pumps = [asyncio.ensure_future(alice.pump(room)), asyncio.ensure_future(bob.pump(room))]
    try:
        bob_got = await asyncio.wait_for(asyncio.shield(bob.received), DEADLINE_SECONDS)
        alice_got = await asyncio.wait_for(asyncio.shield(alice.received), DEADLINE_SECONDS)
    finally:
        for pump in pumps:
            pump.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
    if bob_got != "hello from alice" or alice_got != "hello from bob":
        fail(f"wrong messages: bob got {bob_got!r}, alice got {alice_got!r}")
    if bob.relayed["webrtc_offer"] != 1 or alice.relayed["webrtc_answer"] != 1:
        fail(f"offer/answer not relayed once each: {alice.relayed} {bob.relayed}")
    if bob.relayed["ice_candidate"] < 1 or alice.relayed["ice_candidate"] < 1:
        fail(f"ICE candidates not relayed both ways: {alice.relayed} {bob.relayed}")
    await alice.send({"type": "leave_room"})
    await bob.expect("peer_left")
    for peer in (alice, bob):
        await peer.pc.close()
        await peer.ws.close()
    return alice.relayed, bob.relayed


def main():
    kith = os.environ["KITH"]
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, KITH_LOG_LEVEL="error")
        server = subprocess.Popen([kith, "--home", home, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            line = server.stdout.readline()
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if not match:
                fail(f"unexpected first line {line!r}")
            port = match.group(1)
            relayed = asyncio.run(asyncio.wait_for(scenario(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/"), DEADLINE_SECONDS + 10))
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    print(f"aiortc peers: offer/answer and {relayed[0]['ice_candidate']}+{relayed[1]['ice_candidate']} ICE candidates relayed by kith serve; "
          "chat DataChannel carried a message each way")


if __name__ == "__main__":
    main()
