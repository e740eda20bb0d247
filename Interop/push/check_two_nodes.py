#!/usr/bin/env python3
"""Two `kith serve` nodes on one PostgreSQL database ($KITH_TEST_POSTGRES_URL): a subscriber connected to
node 1 receives, live, a message that pywebpush posts through node 2 (LISTEN/NOTIFY), decrypts it with
http_ece, and a knock token made on node 1 is accepted on node 2. Loopback only."""
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
from pywebpush import webpush

sys.path.insert(0, os.path.dirname(__file__))
from serve_util import Server, expect  # noqa: E402


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


async def main():
    url = os.environ["KITH_TEST_POSTGRES_URL"]
    # Node 2's gateway delivers to node 1's push service on loopback: only with the explicit option.
    one = Server("--database-url", url, "--allow-private-push-endpoints")
    two = Server("--database-url", url, "--allow-private-push-endpoints")
    try:
        created = requests.post(one.base + "/push/subscriptions", timeout=10).json()
        endpoint, secret = created["endpoint"], created["subscription"]
        path = endpoint[len(one.base):]
        receiver = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        keys = {"p256dh": b64url(receiver.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)), "auth": b64url(auth)}
        async with websockets.connect(f"ws://127.0.0.1:{one.port}/push/subscriptions/{secret}/ws") as socket:
            await asyncio.sleep(0.2)
            answer = webpush({"endpoint": two.base + path, "keys": keys}, data=b"through node two", ttl=60)
            expect(answer.status_code == 201, f"post through node 2: {answer.status_code}")
            frame = json.loads(await asyncio.wait_for(socket.recv(), 5))
            body = base64.urlsafe_b64decode(frame["body"] + "=" * (-len(frame["body"]) % 4))
            expect(http_ece.decrypt(body, private_key=receiver, auth_secret=auth, version="aes128gcm") == b"through node two", "decrypt")
            await socket.send(json.dumps({"type": "ack", "id": frame["id"]}))

        api1, api2 = one.base + "/api/v1/", two.base + "/api/v1/"
        account = requests.post(api1 + "accounts/", json={"username": "two-nodes-" + secret[:8], "password": "pw"}, timeout=30).json()
        auth_header = {"Authorization": "Token " + account["token"]}
        device = requests.post(api1 + "device/webpush/", json={"endpoint": endpoint, "keys": keys}, headers=auth_header, timeout=10).json()
        token = requests.post(api1 + "tokens/", json={"webpush_device": device["id"]}, headers=auth_header, timeout=10).json()["token"]
        expect(requests.post(api2 + "messages/", json={"token": token}, timeout=10).status_code == 202, "knock through node 2")
        expect(requests.delete(api2 + f"tokens/{token}/", headers=auth_header, timeout=10).status_code == 204, "revoke through node 2")
        expect(requests.post(api1 + "messages/", json={"token": token}, timeout=10).status_code == 404, "revoked on node 1")
        print("push two nodes: pywebpush through node 2 reached a subscriber on node 1 live (LISTEN/NOTIFY); tokens shared")
    finally:
        one.stop()
        two.stop()


asyncio.run(main())
