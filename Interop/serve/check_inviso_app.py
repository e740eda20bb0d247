#!/usr/bin/env python3
"""The Inviso iOS app's newer protocol against `kith serve` (docs/SERVER.md, "Inviso compatibility"), spoken exactly
as the app sends it (apptrackit/chat-ios: Inviso/Netwrorking/APIClient.swift, Inviso/Chat/ChatManager.swift):

- `POST /api/rooms {joinid, expiresInSeconds, client1, client1_token, platform: "ios"}` and
  `POST /api/rooms/accept {joinid, client2, client2_token, platform: "ios"}` with 64-hex APNs tokens;
- `join_room {roomId, deviceId}`; a member alone in its room makes the server push to the other phone;
- `key_exchange {publicKey, sessionId}` and `key_exchange_complete {sessionId}` relayed to the peer exactly, with
  `from` and `roomId` added (what the app's SignalingClient passes on);
- `ping_peer` answered `{"type":"ping_sent"}`; a push only to a peer that is not connected, at most one per 30 s.

The pushes are captured by an independent HTTP/2 APNs endpoint (Interop/push-delivery/apns_mock.py: h2, pyjwt
checks the ES256 provider token), which checks each presence payload as the app reads it (`roomId` at the top level,
an alert with `mutable-content` for the notification service extension). The server runs in the
`InvisoAppInteropHost` Swift test (the only way to give it an APNs provider on loopback with a test-only CA):
this script starts it with `swift test --skip-build` (`KITH_SWIFT` overrides `swift`, e.g. the worktree wrapper)."""
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import requests
from websockets.sync.client import connect

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "push-delivery"))
from apns_mock import APNsMock  # noqa: E402

TOKEN_A = "a1" * 32  # client1's iPhone (as PushNotificationManager.setDeviceToken prints it: 64 lowercase hex)
TOKEN_B = "b2" * 32  # client2's iPhone
DEVICE_A = "7c9e6679-7425-40de-944b-e07fc1f90ae7"  # ephemeral ids are UUID strings
DEVICE_B = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"


def expect(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


class PresenceAPNs(APNsMock):
    """Records every presence push: its device token, payload and failures."""

    def __init__(self, certificate, private_key):
        super().__init__(certificate, private_key, knock_message=None)
        self.pushes = []

    def check(self, headers, body):
        failures = self.check_provider(headers)
        path = headers.get(":path", "")
        token = path.rsplit("/", 1)[-1]
        if headers.get(":method") != "POST" or path != f"/3/device/{token}" or token not in (TOKEN_A, TOKEN_B):
            failures.append(f"request line {headers.get(':method')} {path}")
        if headers.get("apns-push-type") != "alert" or headers.get("apns-priority") != "10":
            failures.append(f"push type {headers.get('apns-push-type')} priority {headers.get('apns-priority')}")
        payload = json.loads(body or b"null")
        if not isinstance(payload, dict):
            failures.append("payload is not an object")
            payload = {}
        aps = payload.get("aps", {})
        # PushNotificationManager.handleNotificationTap and NotificationService.didReceive read userInfo["roomId"].
        if not isinstance(payload.get("roomId"), str) or payload.get("type") != "presence":
            failures.append(f"roomId/type {payload}")
        if not isinstance(aps.get("alert"), str) or aps.get("mutable-content") != 1 or aps.get("sound") != "default":
            failures.append(f"aps {aps}")
        if set(payload) != {"aps", "roomId", "type"}:
            failures.append(f"payload members {sorted(payload)}: nothing beyond what the app reads")
        self.pushes.append({"token": token, "payload": payload, "failures": failures})
        return failures


class App:
    """One phone's signaling socket, reading JSON messages."""

    def __init__(self, url, sockets):
        self.socket = sockets.enter_context(connect(url, open_timeout=60))
        hello = self.next()
        expect(hello["type"] == "connected" and hello["server"] == "WebRTC P2P Signaling Server", f"connected: {hello}")
        self.client_id = hello["clientId"]

    def send(self, message):
        self.socket.send(json.dumps(message))

    def next(self, seconds=60):
        return json.loads(self.socket.recv(timeout=seconds))


def wait_for(condition, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise SystemExit(f"FAILED: timed out waiting for {what}")


def run_app(base, ws_url, apns):
    with contextlib.ExitStack() as sockets:
        speak(base, ws_url, apns, sockets)


def speak(base, ws_url, apns, sockets):
    code = str(int(time.time() * 1000) % 1_000_000).zfill(6)
    # APIClient.createRoom and acceptJoinCode with a device token.
    created = requests.post(f"{base}/api/rooms", json={"joinid": code, "expiresInSeconds": 300, "client1": DEVICE_A,
                                                       "client1_token": TOKEN_A, "platform": "ios"}, timeout=30)
    expect(created.status_code == 201 and created.json().get("ok") is True, f"create: {created.status_code} {created.text}")
    accepted = requests.post(f"{base}/api/rooms/accept", json={"joinid": code, "client2": DEVICE_B,
                                                               "client2_token": TOKEN_B, "platform": "ios"}, timeout=30)
    expect(accepted.status_code == 200, f"accept: {accepted.status_code} {accepted.text}")
    room = accepted.json()["roomid"]
    checked = requests.post(f"{base}/api/rooms/check", json={"joinid": code, "client1": DEVICE_A}, timeout=30)
    expect(checked.status_code == 200 and checked.json() == {"roomid": room}, f"check: {checked.text}")
    info = requests.get(f"{base}/api/rooms", params={"roomid": room}, timeout=30).json()
    expect("client1_token" not in info and "client2_token" not in info, f"GET /api/rooms leaks tokens: {info}")
    bad = requests.post(f"{base}/api/rooms", json={"joinid": code + "x", "expiresInSeconds": 300, "client1": DEVICE_A,
                                                   "client1_token": "not a token", "platform": "ios"}, timeout=30)
    expect(bad.status_code == 400 and bad.json().get("error") == "invalid_client1_token", f"bad token: {bad.text}")

    alice = App(ws_url, sockets)
    alice.send({"type": "join_room", "roomId": room, "deviceId": DEVICE_A})
    joined = alice.next()
    expect(joined == {"type": "room_joined", "roomId": room, "userCount": 1, "isInitiator": True, "ready": False}, f"{joined}")
    # Alone in the room: Bob's iPhone is told.
    wait_for(lambda: len(apns.pushes) == 1, 60, "the presence push on join")
    expect(apns.pushes[0]["token"] == TOKEN_B and apns.pushes[0]["payload"]["roomId"] == room, f"{apns.pushes[0]}")
    alice.send({"type": "ping_peer"})
    expect(alice.next() == {"type": "ping_sent"}, "ping_sent")  # within 30 s of the last push: no second push

    bob = App(ws_url, sockets)
    bob.send({"type": "join_room", "roomId": room, "deviceId": DEVICE_B})
    expect(bob.next()["type"] == "room_joined", "bob joined")
    expect(bob.next()["type"] == "room_ready", "bob ready")
    expect(alice.next()["type"] == "room_ready", "alice ready")

    # ChatManager: key_exchange {publicKey, sessionId: roomId}; the responder answers key_exchange_complete {sessionId}.
    key_a, key_b = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8M=", "3q2+796tvu/erb7v3q2+796tvu/erb7v3q2+796tvu8="
    alice.send({"type": "key_exchange", "publicKey": key_a, "sessionId": room})
    got = bob.next()
    expect(got == {"type": "key_exchange", "from": alice.client_id, "roomId": room, "publicKey": key_a, "sessionId": room},
           f"key_exchange relayed: {got}")
    bob.send({"type": "key_exchange", "publicKey": key_b, "sessionId": room})
    got = alice.next()
    expect(got == {"type": "key_exchange", "from": bob.client_id, "roomId": room, "publicKey": key_b, "sessionId": room},
           f"key_exchange back: {got}")
    bob.send({"type": "key_exchange_complete", "sessionId": room})
    got = alice.next()
    expect(got == {"type": "key_exchange_complete", "from": bob.client_id, "roomId": room, "sessionId": room},
           f"key_exchange_complete relayed: {got}")

    # Both connected: a ping pushes nothing.
    bob.send({"type": "ping_peer"})
    expect(bob.next() == {"type": "ping_sent"}, "ping_sent with the peer connected")
    # Alice's app goes away: Bob's ping reaches her iPhone.
    alice.socket.close()
    expect(bob.next() == {"type": "peer_disconnected", "message": "Other user disconnected"}, "peer_disconnected")
    bob.send({"type": "ping_peer"})
    expect(bob.next() == {"type": "ping_sent"}, "ping_sent alone")
    wait_for(lambda: len(apns.pushes) == 2, 60, "the presence push on ping_peer")
    expect(apns.pushes[1]["token"] == TOKEN_A and apns.pushes[1]["payload"]["roomId"] == room, f"{apns.pushes[1]}")
    bob.socket.close()
    time.sleep(1)
    expect(len(apns.pushes) == 2, f"exactly two pushes, got {len(apns.pushes)}")
    for push in apns.pushes:
        expect(not push["failures"], f"APNs mock found: {push['failures']}")


def main():
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    support = os.path.join(root, "Tests", "KithPushDeliveryTests", "Support")
    apns = PresenceAPNs(os.path.join(support, "mock.crt"), os.path.join(support, "mock.key"))
    apns.start()
    swift = os.environ.get("KITH_SWIFT", "swift")
    with tempfile.TemporaryDirectory() as directory:
        key = os.path.join(directory, "AuthKey.p8")
        with open(key, "w") as handle:
            handle.write(apns.p8_pem())
        env = dict(os.environ, KITH_INVISO_INTEROP_DIR=directory, KITH_INVISO_INTEROP_APNS_KEY=key,
                   KITH_INVISO_INTEROP_APNS_PORT=str(apns.port), KITH_INVISO_INTEROP_CERT=os.path.join(support, "mock.crt"))
        log = open(os.path.join(directory, "swift.log"), "w+")
        host = subprocess.Popen([swift, "test", "--skip-build", "--filter", "InvisoAppInteropHost"],
                                cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            port_file = os.path.join(directory, "port")
            deadline = time.time() + 300
            while not (os.path.exists(port_file) and open(port_file).read().strip()) and time.time() < deadline:
                expect(host.poll() is None, "the server test ended before serving")
                time.sleep(0.1)
            port = int(open(port_file).read().strip())
            run_app(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/", apns)
        finally:
            open(os.path.join(directory, "done"), "w").close()
            try:
                host.wait(timeout=180)
            except subprocess.TimeoutExpired:
                host.kill()
            apns.stop()
            log.seek(0)
            output = log.read()
        expect(host.returncode == 0 and re.search(r"Test \"serve rooms with an APNs provider for the Python app client\" passed", output),
           f"server test failed:\n{output[-3000:]}")
    print("ok: the Inviso app's create/accept with tokens, join_room with deviceId, key_exchange relay, ping_peer and "
          "two APNs presence pushes")


if __name__ == "__main__":
    main()
