#!/usr/bin/env python3
"""Kith's WebPushProvider (Sources/KithPushDelivery) delivering to an independent Web Push receiver.

This script is the push service and the device at once, on loopback: it makes a subscription (P-256
key pair and auth secret with `cryptography`), serves `POST /push/<capability>` with Python's
standard library, and for every request checks the RFC 8030 headers, verifies the RFC 8292 VAPID JWT
with `pyjwt` (ES256, `aud` = this server's origin, `exp` at most 24 h ahead) and with `py_vapid`'s
own verifier, and decrypts the RFC 8291 `aes128gcm` body with `http_ece`. It answers 201 only when
every check passed. The sender is the Swift test `WebPushInteropTests`, run with the subscription in
KITH_PUSH_INTEROP_SUBSCRIPTION; the test expects `.delivered` for each knock, and this script expects
exactly the knocks the test sends, all valid."""
import base64
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

KNOCK = {"message": {"data": "hi", "token": "0123456789abcdef0123456789abcdef01234567"}}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Receiver:
    def __init__(self):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.public_bytes = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.auth = secrets.token_bytes(16)
        self.capability = b64url(secrets.token_bytes(20))
        self.results = []
        self.lock = threading.Lock()

    def check(self, origin, path, headers, body):
        """Returns a list of failed checks (empty when the push is valid)."""
        failures = []
        if path != f"/push/{self.capability}":
            return [f"unknown path {path}"]
        if not re.fullmatch(r"\d+", headers.get("TTL", "")):
            failures.append("TTL missing or not digits")
        if headers.get("Urgency") not in ("very-low", "low", "normal", "high"):
            failures.append(f"bad Urgency {headers.get('Urgency')!r}")
        topic = headers.get("Topic")
        if topic is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", topic):
            failures.append("bad Topic")
        if headers.get("Content-Encoding") != "aes128gcm":
            failures.append("Content-Encoding is not aes128gcm")
        match = re.fullmatch(r"vapid\s+t=([^,\s]+)\s*,\s*k=([A-Za-z0-9_-]+)", headers.get("Authorization", ""))
        if not match:
            return failures + ["Authorization is not vapid t=…, k=…"]
        token, key = match.group(1), match.group(2)
        key_bytes = b64url_decode(key)
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key_bytes)
        if key_bytes == self.public_bytes:
            failures.append("VAPID key equals the subscription key (RFC 8292 §3.2)")
        try:
            claims = jwt.decode(token, public_key, algorithms=["ES256"], audience=origin, options={"require": ["aud", "exp"]})
            if claims["exp"] > time.time() + 86400 + 60:
                failures.append("exp more than 24 h ahead")
            if not str(claims.get("sub", "mailto:")).startswith(("mailto:", "https:")):
                failures.append("sub is not mailto: or https:")
        except jwt.PyJWTError as error:
            failures.append(f"pyjwt rejected the VAPID JWT: {error}")
        header = json.loads(b64url_decode(token.split(".")[0]))
        if header.get("alg") != "ES256":
            failures.append("JWT alg is not ES256")
        # py_vapid's own verifier (its parser wants `t=…,k=…` without the optional space RFC 8292 allows).
        try:
            if not Vapid.verify(f"vapid t={token},k={key}"):
                failures.append("py_vapid rejected the signature")
        except Exception as error:  # py_vapid asserts on malformed headers
            failures.append(f"py_vapid could not parse the header: {error}")
        try:
            plaintext = http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")
            if json.loads(plaintext) != KNOCK:
                failures.append(f"decrypted body is not the knock: {plaintext[:80]!r}")
        except Exception as error:  # http_ece raises several exception types
            failures.append(f"http_ece could not decrypt: {error}")
        if len(body) > 4096:
            failures.append("body over 4096 bytes")
        return failures


def main():
    receiver = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(min(length, 8192))
            origin = f"http://127.0.0.1:{self.server.server_address[1]}"
            failures = receiver.check(origin, self.path, self.headers, body)
            with receiver.lock:
                receiver.results.append({"urgency": self.headers.get("Urgency"), "topic": self.headers.get("Topic"), "failures": failures})
            if failures:
                reply = json.dumps({"failures": failures}).encode()
                self.send_response(400)
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)
            else:
                self.send_response(201)
                self.send_header("Location", "/push/messages/1")
                self.send_header("Content-Length", "0")
                self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    with tempfile.TemporaryDirectory() as directory:
        subscription = os.path.join(directory, "subscription.json")
        with open(subscription, "w") as handle:
            json.dump({"endpoint": f"http://127.0.0.1:{port}/push/{receiver.capability}",
                       "p256dh": b64url(receiver.public_bytes), "auth": b64url(receiver.auth)}, handle)
        env = dict(os.environ, KITH_PUSH_INTEROP_SUBSCRIPTION=subscription)
        swift = subprocess.run(["swift", "test", "--skip-build", "--filter", "WebPushInteropTests"],
                               env=env, capture_output=True, text=True, timeout=600)
    server.shutdown()
    print(swift.stdout[-3000:])
    for result in receiver.results:
        print("request:", result)
    if swift.returncode != 0:
        print(swift.stderr[-2000:])
        raise SystemExit("FAILED: the Swift sender reported a failure")
    if len(receiver.results) != 2 or any(r["failures"] for r in receiver.results):
        raise SystemExit(f"FAILED: expected 2 valid pushes, got {receiver.results}")
    if sorted(r["urgency"] for r in receiver.results) != ["high", "normal"]:
        raise SystemExit("FAILED: urgencies differ from the test's high and low knocks")
    print("push-delivery: 2 Web Push knocks from Kith verified by pyjwt + py_vapid and decrypted by http_ece")


if __name__ == "__main__":
    main()
