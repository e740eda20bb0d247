#!/usr/bin/env python3
"""A ChatSecure-shaped walk through Kith's push gateway (/api/v1/, docs/PUSH.md) with `requests`, as the
ChatSecure SDK drives ChatSecure-Push: an anonymous account, an APNs device, whitelist tokens, a knock,
revocation, the 404 that makes a client drop a token, and unregistering. Loopback only."""
import os
import re
import sys
import uuid
import secrets

import requests

sys.path.insert(0, os.path.dirname(__file__))
from serve_util import Server, expect  # noqa: E402

TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def main():
    server = Server()
    try:
        api = server.base + "/api/v1/"
        username, password = str(uuid.uuid4())[:30], secrets.token_urlsafe(75)[:100]
        created = requests.post(api + "accounts/", json={"username": username, "password": password}, timeout=30)
        expect(created.status_code == 201, f"create: {created.status_code} {created.text}")
        account = created.json()
        expect(set(account) == {"username", "email", "id", "token"} and re.fullmatch(r"[0-9a-f]{40}", account["token"]), f"{account}")
        login = requests.post(api + "accounts/", json={"username": username, "password": password}, timeout=30)
        expect(login.status_code == 200 and login.json()["id"] == account["id"], f"login: {login.status_code}")
        auth = {"Authorization": "Token " + login.json()["token"]}
        expect(requests.get(api + "accounts/", headers={"Authorization": "Token " + account["token"]}, timeout=10).status_code == 401,
               "the token before login stops working")
        wrong = requests.post(api + "accounts/", json={"username": username, "password": "wrong"}, timeout=30)
        expect(wrong.status_code == 401 and wrong.json() == {"error": "Invalid credentials"}, "wrong password")

        device = requests.post(api + "device/apns/", json={"registration_id": "<0123 4567 89ab cdef>".strip("<>"), "name": "iPhone"}, headers=auth, timeout=10)
        expect(device.status_code == 201, f"device: {device.status_code} {device.text}")
        body = device.json()
        expect(body["registration_id"] == "0123456789abcdef" and body["active"] is True and TIME.match(body["date_created"]), f"{body}")
        again = requests.post(api + "device/apns/", json={"registration_id": "0123456789abcdef"}, headers=auth, timeout=10)
        expect(again.status_code == 200 and again.json()["id"] == body["id"], "idempotent registration")
        devices = requests.get(api + "device/apns/", headers=auth, timeout=10).json()
        expect(isinstance(devices, list) and len(devices) == 1, f"device list {devices}")
        # The SDK's PUT with the same body.
        put = requests.put(api + f"device/apns/{body['id']}/", json={"registration_id": "0123456789abcdef", "name": "iPhone 2"}, headers=auth, timeout=10)
        expect(put.status_code == 200 and put.json()["name"] == "iPhone 2", "put")

        tokens = []
        for _ in range(5):  # ChatSecure keeps five unused tokens, one POST each
            answer = requests.post(api + "tokens/", json={"apns_device": body["id"], "name": "buddy"}, headers=auth, timeout=10)
            expect(answer.status_code == 201, f"token: {answer.status_code} {answer.text}")
            token = answer.json()
            expect(re.fullmatch(r"[0-9a-f]{40}", token["token"]) and token["apns_device"] == body["id"] and TIME.match(token["date_expires"]), f"{token}")
            tokens.append(token["token"])
        batch = requests.post(api + "tokens/", json={"apns_device": body["id"], "count": 3}, headers=auth, timeout=10)
        expect(batch.status_code == 201 and len(batch.json()["results"]) == 3, "batch")
        listed = requests.get(api + "tokens/", headers=auth, timeout=10).json()
        expect(len(listed["results"]) == 8, f"token list {listed}")

        knock = requests.post(api + "messages/", json={"token": tokens[0]}, timeout=10)
        expect(knock.status_code == 202 and knock.json() == {"token": tokens[0], "data": None, "priority": "low"}, f"knock {knock.status_code} {knock.text}")
        high = requests.post(api + "messages/", json={"token": tokens[1], "data": "hi", "priority": "high"}, timeout=10)
        expect(high.status_code == 202 and high.json()["priority"] == "high", "high knock")
        expect(requests.post(api + "messages/", json={"token": tokens[1], "data": "x" * 101}, timeout=10).status_code == 400, "data > 100")

        expect(requests.delete(api + f"tokens/{tokens[0]}/", headers=auth, timeout=10).status_code == 204, "revoke")
        gone = requests.post(api + "messages/", json={"token": tokens[0]}, timeout=10)
        expect(gone.status_code == 404 and gone.content == b"", f"revoked knock: {gone.status_code} {gone.content!r}")
        unknown = requests.post(api + "messages/", json={"token": secrets.token_hex(20)}, timeout=10)
        expect(unknown.status_code == 404 and unknown.content == b"", "unknown token")

        other = requests.post(api + "accounts/", json={"username": "other-" + username[:20], "password": "pw"}, timeout=30).json()
        other_auth = {"Authorization": "Token " + other["token"]}
        expect(requests.get(api + f"device/apns/{body['id']}/", headers=other_auth, timeout=10).status_code == 404, "another owner's device")
        expect(requests.get(api + f"accounts/{username}/", headers=other_auth, timeout=10).status_code == 403, "another's account")

        expect(requests.delete(api + f"accounts/{username}/", headers=auth, timeout=10).status_code == 204, "unregister")
        expect(requests.post(api + "messages/", json={"token": tokens[1]}, timeout=10).status_code == 404, "knock after unregister")
        print("push gateway: ChatSecure-shaped walk (account, login, device, 5+3 tokens, knock 202, revoke, 404, unregister)")
    finally:
        server.stop()


main()
