#!/usr/bin/env python3
"""`kith serve` driven as an operator and an Inviso client would (docs/SERVER.md): it starts with no
configuration on a throwaway home, prints where it listens, pairs two devices over REST with
Python's standard library only, and stops cleanly on SIGTERM. Loopback only."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def expect(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


def main():
    kith = os.environ["KITH"]
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, KITH_LOG_LEVEL="error")
        server = subprocess.Popen([kith, "--home", home, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            line = server.stdout.readline()
            match = re.match(r"kith serve: listening on http://127\.0\.0\.1:(\d+) \(signaling ws://127\.0\.0\.1:\1/\), database (.+)$", line.strip())
            expect(match, f"unexpected first line {line!r}")
            base = f"http://127.0.0.1:{match.group(1)}"
            expect(match.group(2) == os.path.join(home, "rendezvous.sqlite"), f"database not in the home: {match.group(2)}")

            status, text = call(base, "POST", "/api/rooms", {"joinid": "123456", "client1": "dev-a", "expiresInSeconds": 300})
            expect(status == 201 and json.loads(text)["ok"] is True, f"create: {status} {text}")
            status, _ = call(base, "POST", "/api/rooms/check", {"joinid": "123456", "client1": "dev-a"})
            expect(status == 204, f"check while pending: {status}")
            status, text = call(base, "POST", "/api/rooms/accept", {"joinid": "123456", "client2": "dev-b"})
            room = json.loads(text).get("roomid", "")
            expect(status == 200 and re.fullmatch(r"[0-9a-f]{48}", room), f"accept: {status} {text}")
            status, text = call(base, "POST", "/api/rooms/accept", {"joinid": "123456", "client2": "dev-c"})
            expect(status == 409 and json.loads(text) == {"error": "conflict"}, f"second accept: {status} {text}")
            status, text = call(base, "POST", "/api/rooms/check", {"joinid": "123456", "client1": "dev-a"})
            expect(status == 200 and json.loads(text) == {"roomid": room}, f"check: {status} {text}")
            status, text = call(base, "GET", f"/api/rooms?roomid={room}")
            expect(status == 200 and json.loads(text) == {"roomid": room}, f"get without a member's device id: {status} {text}")
            status, text = call(base, "GET", f"/api/rooms?roomid={room}&deviceId=dev-a")
            expect(json.loads(text) == {"roomid": room, "client1": "dev-a", "client2": "dev-b"}, f"get: {status} {text}")
            status, _ = call(base, "GET", "/rooms")
            expect(status == 404, "live rooms must not be listed")
            status, text = call(base, "POST", "/api/user/purge", {"deviceIds": ["dev-a"]})
            expect(json.loads(text) == {"success": True, "deviceIdCount": 1, "roomsDeleted": 1, "pendingsDeleted": 0}, f"purge: {text}")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                code = server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                raise SystemExit("FAILED: kith serve did not stop on SIGTERM")
        expect(code == 0, f"exit status {code} after SIGTERM: {server.stderr.read()}")
        check_provider_options(kith, home, env)
    print("kith serve: started on a free port, paired two devices, one accept winner, stopped on SIGTERM; "
          "half-configured or unreadable APNs/FCM settings refuse to start")


def check_provider_options(kith, home, env):
    """Push provider options: a half-configured APNs or a bad key file stops the start with a clear error."""
    bad_key = os.path.join(home, "bad.p8")
    with open(bad_key, "w") as handle:
        handle.write("not a key")
    account = os.path.join(home, "service-account.json")
    with open(account, "w") as handle:
        handle.write("{}")
    cases = [
        (["--apns-key-id", "ABCDEFGHIJ"], "need --apns-key"),
        (["--apns-key", bad_key], "needs --apns-key-id, --apns-team-id and --apns-topic"),
        (["--apns-key", bad_key, "--apns-key-id", "ABCDEFGHIJ", "--apns-team-id", "ABCDEFGHIJ", "--apns-topic", "org.example.app"], "APNs"),
        (["--fcm-service-account", account], "FCM"),
    ]
    for options, message in cases:
        result = subprocess.run([kith, "--home", home, "serve", "--port", "0", *options], capture_output=True, text=True, env=env, timeout=30)
        expect(result.returncode != 0 and message in result.stderr and "listening" not in result.stdout,
               f"{options}: exit {result.returncode}, stderr {result.stderr!r}")


if __name__ == "__main__":
    main()
