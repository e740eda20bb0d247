"""An independent APNs endpoint for the push-delivery interop check: HTTP/2 over TLS (ALPN h2 only)
with the `h2` library, serving `POST /3/device/<token>` on 127.0.0.1.

It writes an APNs token-signing key (.p8 PEM, P-256) for Kith to load, and for every request checks
the provider token with pyjwt (ES256, `kid`, `iss`, `iat`), the apns-* headers and the JSON payload,
answering 200 with `apns-id` when all pass and 400 `{"reason": ...}` otherwise. The TLS certificate
is the test-only one under Tests/KithPushDeliveryTests/Support (the Swift side trusts exactly it)."""
import asyncio
import json
import sys
import os
import ssl
import threading
import time

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from h2.config import H2Configuration
from h2.connection import H2Connection
from h2.events import DataReceived, RequestReceived, StreamEnded
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "push"))
import chatsecure_sdk  # noqa: E402

KEY_ID = "KITHKEY001"
TEAM_ID = "KITHTEAM01"
BUNDLE_ID = "org.kith.Interop"
DEVICE_TOKEN = "ab" * 32


class APNsMock:
    def __init__(self, certificate, private_key, knock_message):
        self.signing_key = ec.generate_private_key(ec.SECP256R1())
        self.knock_message = knock_message
        self.results = []
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(certificate, private_key)
        self.context.set_alpn_protocols(["h2"])
        self.port = None
        self.ready = threading.Event()
        self.loop = None
        self.server = None

    def p8_pem(self):
        return self.signing_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()).decode()

    def check(self, headers, body):
        failures = []
        if headers.get(":method") != "POST" or headers.get(":path") != f"/3/device/{DEVICE_TOKEN}":
            failures.append(f"request line {headers.get(':method')} {headers.get(':path')}")
        failures += self.check_provider(headers)
        return failures + self.check_knock(headers, body)

    def check_provider(self, headers):
        """The provider token (pyjwt, ES256), topic, expiration and id every push carries."""
        failures = []
        authorization = headers.get("authorization", "")
        if not authorization.startswith("bearer "):
            failures.append("authorization is not bearer")
        try:
            token = authorization[len("bearer "):]
            header = jwt.get_unverified_header(token)
            if header.get("kid") != KEY_ID or header.get("alg") != "ES256":
                failures.append(f"JWT header {header}")
            claims = jwt.decode(token, self.signing_key.public_key(), algorithms=["ES256"],
                                options={"require": ["iss", "iat"], "verify_aud": False})
            if claims["iss"] != TEAM_ID:
                failures.append("iss is not the team id")
            if abs(claims["iat"] - time.time()) > 3600:
                failures.append("iat is more than an hour off")
        except jwt.PyJWTError as error:
            failures.append(f"pyjwt rejected the provider token: {error}")
        if headers.get("apns-topic") != BUNDLE_ID:
            failures.append("apns-topic is not the bundle id")
        if not headers.get("apns-expiration", "").isdigit() or len(headers.get("apns-id", "")) != 36:
            failures.append("apns-expiration or apns-id missing")
        return failures

    def check_knock(self, headers, body):
        """A knock's payload, as the ChatSecure-Push SDK reads it."""
        failures = []
        push_type, priority = headers.get("apns-push-type"), headers.get("apns-priority")
        payload = json.loads(body or b"null")
        aps = payload.get("aps", {}) if isinstance(payload, dict) else {}
        if push_type == "background":
            # A background push may not carry an alert: the message sits beside aps.
            if not isinstance(payload, dict) or payload.get("message") != self.knock_message:
                failures.append("background payload message is not the knock's message object")
            if priority != "5" or aps != {"content-available": 1}:
                failures.append(f"background push with priority {priority} and aps {aps}")
        elif push_type == "alert":
            if priority != "10" or not isinstance(aps.get("alert"), dict) or not aps["alert"].get("body"):
                failures.append(f"alert push with priority {priority} and aps {aps}")
            # What the ChatSecure-Push SDK does with it (messageFromPushDictionary).
            try:
                message = chatsecure_sdk.message_from_push(payload)
                if message["token"] != self.knock_message["token"]:
                    failures.append("the SDK reads another token from the alert push")
            except chatsecure_sdk.SDKRejects as error:
                failures.append(f"the ChatSecure-Push SDK rejects the alert push: {error}")
        else:
            failures.append(f"apns-push-type {push_type}")
        if len(body) > 4096:
            failures.append("payload over 4096 bytes")
        return failures

    async def handle(self, reader, writer):
        if writer.get_extra_info("ssl_object").selected_alpn_protocol() != "h2":
            writer.close()
            return
        connection = H2Connection(config=H2Configuration(client_side=False, header_encoding="utf-8"))
        connection.initiate_connection()
        writer.write(connection.data_to_send())
        streams = {}
        while True:
            data = await reader.read(65536)
            if not data:
                break
            for event in connection.receive_data(data):
                if isinstance(event, RequestReceived):
                    streams[event.stream_id] = (dict(event.headers), bytearray())
                elif isinstance(event, DataReceived):
                    streams[event.stream_id][1].extend(event.data)
                    connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, StreamEnded):
                    headers, body = streams.pop(event.stream_id)
                    failures = self.check(headers, bytes(body))
                    self.results.append({"push_type": headers.get("apns-push-type"), "failures": failures})
                    if failures:
                        reply = json.dumps({"reason": "BadRequest", "failures": failures}).encode()
                        connection.send_headers(event.stream_id, [(":status", "400"), ("content-length", str(len(reply)))])
                        connection.send_data(event.stream_id, reply, end_stream=True)
                    else:
                        connection.send_headers(event.stream_id, [(":status", "200"), ("apns-id", headers["apns-id"])], end_stream=True)
            writer.write(connection.data_to_send())
            await writer.drain()
        writer.close()

    def start(self):
        def run():
            self.loop = asyncio.new_event_loop()
            self.server = self.loop.run_until_complete(asyncio.start_server(self.handle, "127.0.0.1", 0, ssl=self.context))
            self.port = self.server.sockets[0].getsockname()[1]
            self.ready.set()
            self.loop.run_forever()
        threading.Thread(target=run, daemon=True).start()
        self.ready.wait(10)

    def stop(self):
        if self.loop:
            self.loop.call_soon_threadsafe(self.loop.stop)
