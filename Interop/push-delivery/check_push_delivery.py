#!/usr/bin/env python3
"""Kith's WebPushProvider (Sources/KithPushDelivery) delivering to an independent Web Push receiver.

This script is the push service and the device at once, on loopback: it makes a subscription (P-256
key pair and auth secret with `cryptography`), serves `POST /push/<capability>` with Python's
standard library, and for every request checks the RFC 8030 headers, verifies the RFC 8292 VAPID JWT
with `pyjwt` (ES256, `aud` = this server's origin, `exp` at most 24 h ahead) and with `py_vapid`'s
own verifier, and decrypts the RFC 8291 `aes128gcm` body with `http_ece`. It answers 201 only when
every check passed. The sender is the Swift test `WebPushInteropTests`, run with the subscription in
KITH_PUSH_INTEROP_SUBSCRIPTION; the test expects `.delivered` for each knock, and this script expects
exactly the knocks the test sends, all valid.

The same server also plays Google's OAuth token endpoint and the FCM HTTP v1 send API over plain
HTTP/1.1: it writes a service-account JSON with an RSA key it generated, verifies Kith's RS256
JWT-bearer assertion with pyjwt, hands out an access token and checks the FCM message body.

`apns_mock.py` is an APNs endpoint over HTTP/2 + TLS (the `h2` library) whose provider-token check is
pyjwt's; the Swift APNsProvider sends it one background and one alert knock."""
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
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from py_vapid import Vapid

from apns_mock import APNsMock

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
        self.rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.access_token = "ya29." + b64url(secrets.token_bytes(24))
        self.fcm_results = []

    def service_account(self, base):
        pem = self.rsa_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()).decode()
        return {"type": "service_account", "project_id": "kith-interop", "private_key_id": "k1", "private_key": pem,
                "client_email": "push@kith-interop.iam.gserviceaccount.com", "token_uri": f"{base}/token"}

    def check_token_request(self, base, headers, body):
        failures = []
        if headers.get("Content-Type") != "application/x-www-form-urlencoded":
            failures.append("token request is not form-encoded")
        form = dict(part.split("=", 1) for part in body.decode().split("&") if "=" in part)
        if form.get("grant_type") != "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer":
            failures.append("grant_type is not the JWT-bearer grant")
        try:
            claims = jwt.decode(form.get("assertion", ""), self.rsa_key.public_key(), algorithms=["RS256"],
                                audience=f"{base}/token", options={"require": ["iss", "aud", "iat", "exp"]})
            if claims["iss"] != "push@kith-interop.iam.gserviceaccount.com":
                failures.append("iss is not the client_email")
            if claims.get("scope") != "https://www.googleapis.com/auth/firebase.messaging":
                failures.append("scope is not firebase.messaging")
            if claims["exp"] - claims["iat"] > 3600:
                failures.append("assertion lives longer than an hour")
        except jwt.PyJWTError as error:
            failures.append(f"pyjwt rejected the RS256 assertion: {error}")
        return failures

    def check_fcm_send(self, path, headers, body):
        failures = []
        if path != "/v1/projects/kith-interop/messages:send":
            failures.append(f"unexpected send path {path}")
        if headers.get("Authorization") != f"Bearer {self.access_token}":
            failures.append("send is not authorized with the issued access token")
        message = json.loads(body).get("message", {})
        if message.get("token") != "fcm-interop-token":
            failures.append("message.token is not the registration token")
        # ChatSecure-Push-Server's data.message ({"message": {data, token}}), as the JSON text an Android app receives.
        if json.loads(message.get("data", {}).get("message", "null")) != {"message": KNOCK["message"]}:
            failures.append("data.message is not ChatSecure's {message: {data, token}} as a JSON string")
        if message.get("android") != {"priority": "high", "ttl": "60s"}:
            failures.append(f"android block is {message.get('android')}")
        return failures

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

        def reply(self, status, payload):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(min(length, 16384))
            origin = f"http://127.0.0.1:{self.server.server_address[1]}"
            if self.path == "/token" or self.path.startswith("/v1/"):
                if self.path == "/token":
                    failures = receiver.check_token_request(origin, self.headers, body)
                else:
                    failures = receiver.check_fcm_send(self.path, self.headers, body)
                with receiver.lock:
                    receiver.fcm_results.append({"path": self.path, "failures": failures})
                if failures:
                    self.reply(400, {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "; ".join(failures)}})
                elif self.path == "/token":
                    self.reply(200, {"access_token": receiver.access_token, "expires_in": 3599, "token_type": "Bearer"})
                else:
                    self.reply(200, {"name": "projects/kith-interop/messages/1"})
                return
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

    support = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "KithPushDeliveryTests", "Support")
    apns = APNsMock(os.path.join(support, "mock.crt"), os.path.join(support, "mock.key"), KNOCK["message"])
    apns.start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    with tempfile.TemporaryDirectory() as directory:
        base = f"http://127.0.0.1:{port}"
        subscription = os.path.join(directory, "subscription.json")
        with open(subscription, "w") as handle:
            json.dump({"endpoint": f"{base}/push/{receiver.capability}",
                       "p256dh": b64url(receiver.public_bytes), "auth": b64url(receiver.auth)}, handle)
        service_account = os.path.join(directory, "service-account.json")
        with open(service_account, "w") as handle:
            json.dump(receiver.service_account(base), handle)
        apns_key = os.path.join(directory, "AuthKey.p8")
        with open(apns_key, "w") as handle:
            handle.write(apns.p8_pem())
        env = dict(os.environ, KITH_PUSH_INTEROP_SUBSCRIPTION=subscription,
                   KITH_PUSH_INTEROP_APNS_KEY=apns_key, KITH_PUSH_INTEROP_APNS_PORT=str(apns.port),
                   KITH_PUSH_INTEROP_FCM_SERVICE_ACCOUNT=service_account, KITH_PUSH_INTEROP_FCM_BASE=base)
        swift = subprocess.run(["swift", "test", "--skip-build", "--filter", "PushDeliveryInteropTests"],
                               env=env, capture_output=True, text=True, timeout=600)
    server.shutdown()
    apns.stop()
    print(swift.stdout[-3000:])
    for result in receiver.results + receiver.fcm_results + apns.results:
        print("request:", result)
    if swift.returncode != 0:
        print(swift.stderr[-2000:])
        raise SystemExit("FAILED: the Swift sender reported a failure")
    if len(receiver.results) != 2 or any(r["failures"] for r in receiver.results):
        raise SystemExit(f"FAILED: expected 2 valid pushes, got {receiver.results}")
    if sorted(r["urgency"] for r in receiver.results) != ["high", "normal"]:
        raise SystemExit("FAILED: urgencies differ from the test's high and low knocks")
    if [r["path"] for r in receiver.fcm_results] != ["/token", "/v1/projects/kith-interop/messages:send"] \
            or any(r["failures"] for r in receiver.fcm_results):
        raise SystemExit(f"FAILED: expected one valid token request and one valid FCM send, got {receiver.fcm_results}")
    if sorted(r["push_type"] for r in apns.results) != ["alert", "background"] or any(r["failures"] for r in apns.results):
        raise SystemExit(f"FAILED: expected a valid background and a valid alert APNs push, got {apns.results}")
    print("push-delivery: 2 Web Push knocks verified by pyjwt + py_vapid and decrypted by http_ece; "
          "1 FCM knock with an RS256 assertion verified by pyjwt; 2 APNs knocks over h2 with the ES256 token verified by pyjwt")


if __name__ == "__main__":
    main()
