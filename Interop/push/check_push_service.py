#!/usr/bin/env python3
"""Kith's self-hosted push service (docs/PUSH.md) against independent Web Push peers, loopback only:
a Python subscriber makes its own RFC 8291 keys and a VAPID-restricted subscription, pywebpush (with
py-vapid) posts encrypted messages as an application server, the subscriber receives them over the
WebSocket channel with the `websockets` library and decrypts them with `http_ece`; acks delete,
unacked messages come again, a stranger's VAPID key gets 403, none 401, a deleted subscription 410."""
import asyncio
import base64
import json
import os
import sys

import http_ece
import requests
import websockets
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

sys.path.insert(0, os.path.dirname(__file__))
from serve_util import Server, expect  # noqa: E402


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def post(subscription, data, vapid, **kwargs):
    try:
        return webpush(subscription, data=data, vapid_private_key=vapid, vapid_claims={"sub": "mailto:interop@example.org"}, **kwargs)
    except WebPushException as error:
        return error.response


async def frames(url, count, timeout=5):
    received = []
    async with websockets.connect(url) as socket:
        while len(received) < count:
            received.append(json.loads(await asyncio.wait_for(socket.recv(), timeout)))
        return received


async def main():
    server = Server()
    try:
        vapid = Vapid02()
        vapid.generate_keys()
        vapid_public = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        answer = requests.post(server.base + "/push/subscriptions", json={"vapid_key": b64url(vapid_public)}, timeout=10)
        expect(answer.status_code == 201, f"subscribe: {answer.status_code} {answer.text}")
        created = answer.json()
        endpoint, secret = created["endpoint"], created["subscription"]
        expect(endpoint.startswith(server.base + "/push/"), f"endpoint {endpoint}")
        expect(answer.headers["Location"] == f"/push/subscriptions/{secret}", "Location")
        expect(answer.headers["Link"] == f'<{endpoint}>; rel="urn:ietf:params:push"', "Link")

        # The subscriber's own RFC 8291 keys.
        receiver = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        subscription = {"endpoint": endpoint, "keys": {
            "p256dh": b64url(receiver.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)), "auth": b64url(auth)}}
        ws_url = f"ws://127.0.0.1:{server.port}/push/subscriptions/{secret}/ws"

        first = post(subscription, b"knock one", vapid, ttl=60, headers={"Urgency": "high"})
        expect(first.status_code == 201, f"pywebpush first: {first.status_code} {first.text}")
        expect(first.headers["Location"].startswith("/push/messages/") and first.headers["TTL"] == "60", f"headers {dict(first.headers)}")
        second = post(subscription, b"knock two", vapid, ttl=60)
        expect(second.status_code == 201, "pywebpush second")

        async with websockets.connect(ws_url) as socket:
            one = json.loads(await asyncio.wait_for(socket.recv(), 5))
            two = json.loads(await asyncio.wait_for(socket.recv(), 5))
            for frame, text, urgency in ((one, b"knock one", "high"), (two, b"knock two", "normal")):
                expect(frame["type"] == "message" and frame["urgency"] == urgency, f"frame {frame}")
                plain = http_ece.decrypt(unb64url(frame["body"]), private_key=receiver, auth_secret=auth, version="aes128gcm")
                expect(plain == text, f"decrypted {plain!r}")
            await socket.send(json.dumps({"type": "ack", "id": one["id"]}))
            # Live: posted while connected.
            live = post(subscription, b"live knock", vapid, ttl=60)
            expect(live.status_code == 201, "pywebpush live")
            three = json.loads(await asyncio.wait_for(socket.recv(), 5))
            expect(http_ece.decrypt(unb64url(three["body"]), private_key=receiver, auth_secret=auth, version="aes128gcm") == b"live knock", "live")
            await socket.send(json.dumps({"type": "ack", "id": three["id"]}))
            await asyncio.sleep(0.3)
        # The unacknowledged second message comes again, alone.
        again = await frames(ws_url, 1)
        expect(again[0]["id"] == two["id"], "redelivery of the unacked message")

        stranger = Vapid02()
        stranger.generate_keys()
        expect(post(subscription, b"x", stranger, ttl=60).status_code == 403, "a stranger's VAPID key must get 403")
        bare = requests.post(endpoint, data=b"x", headers={"TTL": "60", "Content-Encoding": "aes128gcm"}, timeout=10)
        expect(bare.status_code == 401 and bare.headers.get("WWW-Authenticate") == "vapid", f"no VAPID: {bare.status_code}")
        expect(requests.post(endpoint, data=b"x", headers={"Content-Encoding": "aes128gcm"}, timeout=10).status_code in (400, 401), "no TTL")

        # An unrestricted subscription takes pywebpush without VAPID too; too large → 413.
        open_sub = requests.post(server.base + "/push/subscriptions", timeout=10).json()
        plain_subscription = dict(subscription, endpoint=open_sub["endpoint"])
        expect(webpush(plain_subscription, data=b"no vapid", ttl=30).status_code == 201, "unrestricted")
        big = requests.post(open_sub["endpoint"], data=b"x" * 4097, headers={"TTL": "60"}, timeout=10)
        expect(big.status_code == 413, f"4097 bytes: {big.status_code}")
        expect(requests.post(server.base + "/push/" + "A" * 32, data=b"x", headers={"TTL": "60"}, timeout=10).status_code == 404, "unknown")
        expect(requests.delete(f"{server.base}/push/subscriptions/{secret}", timeout=10).status_code == 204, "delete")
        expect(post(subscription, b"late", vapid, ttl=60).status_code == 410, "deleted subscription must answer 410")
        print("push service: pywebpush (VAPID) → kith /push → websockets subscriber → http_ece decrypts; acks, redelivery, 401/403/404/410/413")
    finally:
        server.stop()


asyncio.run(main())
