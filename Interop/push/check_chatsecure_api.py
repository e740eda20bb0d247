#!/usr/bin/env python3
"""ChatSecure-Push-Server's own API integration test, replayed against `kith serve` as black-box HTTP, with every
answer decoded by the ChatSecure-Push iOS SDK's rules (chatsecure_sdk.py).

Written anew from what the upstream test (`push/api/tests.py`) asserts: two accounts; Alice registers an APNs
device and a token for it; Bob a GCM device and a token for it; Bob's device list holds exactly his device with his
registration id; Bob's token list holds exactly his token, equal to the one created. The upstream test reads the
token list as a bare array; the SDK reads `results`, and the SDK decides here. Added: the SDK's own `createToken`
form (`apns_device` = the APNs registration id) and an account without email. Loopback only."""
import os
import secrets
import sys

import requests

sys.path.insert(0, os.path.dirname(__file__))
import chatsecure_sdk as sdk  # noqa: E402
from serve_util import Server, expect  # noqa: E402

HEADERS = {"Accept": "application/json"}  # what the SDK sends with every request


def post(api, path, body, auth=None):
    headers = dict(HEADERS, **({"Authorization": "Token " + auth} if auth else {}))
    return requests.post(api + path, json=body, headers=headers, timeout=30)


def get(api, path, auth):
    return requests.get(api + path, headers=dict(HEADERS, Authorization="Token " + auth), timeout=30)


def main():
    server = Server()
    try:
        api = server.base + "/api/v1/"
        suffix = secrets.token_hex(4)
        # Accounts as ChatSecure-iOS registers them: no email key at all (PushController passes nil).
        alice_answer = post(api, "accounts/", {"username": "alice-" + suffix, "password": secrets.token_urlsafe(24)})
        expect(alice_answer.status_code == 201, f"alice: {alice_answer.status_code} {alice_answer.text}")
        alice = sdk.account(alice_answer.content)
        bob_answer = post(api, "accounts/", {"username": "bob-" + suffix, "password": secrets.token_urlsafe(24), "email": "bob@example.org"})
        bob = sdk.account(bob_answer.content)
        expect(alice["email"] == "" and bob["email"] == "bob@example.org", f"emails {alice['email']!r} {bob['email']!r}")
        expect(sdk.account(get(api, "accounts/", alice["token"]).content)["username"] == alice["username"], "GET accounts/")

        alice_registration = secrets.token_hex(32)
        answer = post(api, "device/apns/", {"registration_id": alice_registration, "name": "Alice's iPhone"}, alice["token"])
        expect(answer.status_code == 201, f"alice device: {answer.status_code} {answer.text}")
        alice_device = sdk.device(answer.content)
        bob_registration = "fcm:" + secrets.token_urlsafe(100)
        answer = post(api, "device/gcm/", {"registration_id": bob_registration, "name": "Bob's phone"}, bob["token"])
        expect(answer.status_code == 201, f"bob device: {answer.status_code} {answer.text}")
        bob_device = sdk.device(answer.content)

        # Tokens as the upstream test creates them: the device field names the device's id.
        alice_token = sdk.token(post(api, "tokens/", {"apns_device": alice_device["id"], "name": "for bob"}, alice["token"]).content)
        bob_token = sdk.token(post(api, "tokens/", {"gcm_device": bob_device["id"], "name": "for alice"}, bob["token"]).content)
        expect(alice_token["kind"] == "iOS" and bob_token["kind"] == "android", "token kinds")

        # Visibility: Bob sees exactly his device and his token.
        devices = get(api, "device/gcm/", bob["token"]).json()
        expect(isinstance(devices, list) and len(devices) == 1, f"bob's device list {devices}")
        listed_device = sdk.device(devices[0])
        expect(listed_device["registration_id"] == bob_registration and listed_device["id"] == bob_device["id"], "bob's device")
        expect(get(api, "device/apns/", bob["token"]).json() == [], "bob sees no APNs device")
        bob_tokens = sdk.tokens(get(api, "tokens/", bob["token"]).content)
        expect([t["token"] for t in bob_tokens] == [bob_token["token"]], f"bob's token list {bob_tokens}")
        expect(get(api, f"device/apns/{alice_device['id']}/", bob["token"]).status_code == 404, "alice's device is hidden from bob")
        expect(get(api, f"tokens/{alice_token['token']}/", bob["token"]).status_code == 404, "alice's token is hidden from bob")

        # The SDK's createToken: apns_device is the APNs registration id.
        sdk_form = post(api, "tokens/", {"apns_device": alice_registration, "name": "for carol"}, alice["token"])
        expect(sdk_form.status_code == 201, f"createToken by registration id: {sdk_form.status_code} {sdk_form.text}")
        created = sdk.token(sdk_form.content)
        expect(created["device"] == alice_device["id"], "the token names the device")
        alice_tokens = sdk.tokens(get(api, "tokens/", alice["token"]).content)
        expect(sorted(t["token"] for t in alice_tokens) == sorted([alice_token["token"], created["token"]]), f"alice's list {alice_tokens}")

        # A Web Push token beside them does not break the SDK's list.
        webpush = post(api, "device/webpush/", {"endpoint": "https://push.example.org/x/" + suffix,
                                                "keys": {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
                                                         "auth": "tBHItJI5svbpez7KI4CCXg"}}, alice["token"])
        expect(webpush.status_code == 201, f"webpush device: {webpush.status_code} {webpush.text}")
        expect(post(api, "tokens/", {"webpush_device": webpush.json()["id"]}, alice["token"]).status_code == 201, "webpush token")
        listing = get(api, "tokens/", alice["token"])
        expect(len(sdk.tokens(listing.content)) == 2 and len(listing.json()["webpush_results"]) == 1, f"list with web push {listing.text}")

        # A knock as the app sends it; the answer as the SDK reads it.
        knock = requests.post(api + "messages/", json={"token": bob_token["token"]}, headers=HEADERS, timeout=30)
        expect(knock.status_code == 202 and sdk.message_from_server(knock.content)["token"] == bob_token["token"], f"knock {knock.text}")
        print("push gateway: ChatSecure-Push-Server's API test replayed (2 accounts, APNs and GCM devices and tokens, visibility), "
              "every answer decoded by the ChatSecure-Push SDK's rules, createToken by registration id, a Web Push token beside")
    except sdk.SDKRejects as error:
        raise SystemExit(f"FAILED: the ChatSecure-Push SDK would reject an answer: {error}")
    finally:
        server.stop()


main()
