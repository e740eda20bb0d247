#!/usr/bin/env python3
"""Independent check of Kith-made invites (docs/INVITES.md), written for Kith from its documented derivations.

From a fixed 32-byte device seed, derives (HKDF-SHA256, `cryptography`): the Ed25519 identity key ("identity_key")
and the feed id (SHA-256 of it), the secp256k1 invite key (salt "Kith_Invite_v1", info "invite_key"); then builds the
Convos payload with creator_inbox_id = feed id, the conversation token (fixed nonce), the recoverable signature
(coincurve, RFC 6979) and the slug. Reuses the Convos wire helpers of invite_vectors.py.

  kith_invite_vectors.py generate OUT.json   write the vectors
  kith_invite_vectors.py check FILE.json     recompute; verify each signature against the invite key; decrypt each
                                             token with the key derived from the seed; exit 1 on any difference
"""
import base64
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import coincurve  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402
from cryptography.hazmat.primitives.kdf.hkdf import HKDF  # noqa: E402

from invite_vectors import b64url, field_bytes, open_token, payload_bytes, seal_token, slug  # noqa: E402

TOKEN_NONCE = bytes(range(12))


def hkdf(seed, salt, info, length=32):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt or None, info=info).derive(seed)


def identity(seed):
    ed = Ed25519PrivateKey.from_private_bytes(hkdf(seed, b"", b"identity_key"))
    pub = ed.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    feed = hashlib.sha256(pub).digest()
    invite_key = hkdf(seed, b"Kith_Invite_v1", b"invite_key")
    return pub, feed, invite_key


def make(name, seed_byte, group_id, fields):
    seed = bytes([seed_byte]) * 32
    identity_key, feed, invite_key = identity(seed)
    priv = coincurve.PrivateKey(invite_key)
    token = seal_token(invite_key, feed.hex(), group_id, TOKEN_NONCE)
    payload = payload_bytes(dict(fields, token=token, inbox=feed))
    signature = priv.sign_recoverable(payload, hasher=lambda m: hashlib.sha256(m).digest())
    signed = field_bytes(1, payload) + field_bytes(2, signature)
    code = slug(signed)
    return {
        "name": name,
        "seed": seed.hex(),
        "identity_key": identity_key.hex(),
        "feed_id": b64url(feed),
        "creator_inbox_id": feed.hex(),
        "invite_private_key": invite_key.hex(),
        "invite_public_key": priv.public_key.format(compressed=True).hex(),
        "group_id": group_id,
        "token_nonce": TOKEN_NONCE.hex(),
        "token": token.hex(),
        "payload": payload.hex(),
        "signature": signature.hex(),
        "signed_invite": signed.hex(),
        "code": code,
        "url": "kith://invite/" + code,
        "fields": fields,
    }


def vectors():
    group = b64url(bytes(range(32)))
    return [
        make("minimal", 0x07, group, {"tag": "AbCdEf0123"}),
        make("preview-single-use", 0xA1, group, {
            "tag": "Kx7pQ2mZ9a", "name": "Climbing", "description": "Saturday at the wall",
            "imageURL": "https://example.com/wall.png", "conversationExpiresAtUnix": 1893456000,
            "expiresAtUnix": 1790086400, "expiresAfterUse": True, "emoji": "\U0001F9D7"}),
    ]


def check(path):
    with open(path) as f:
        stored = json.load(f)
    fresh = {v["name"]: v for v in vectors()}
    failures = 0
    for vector in stored:
        name = vector["name"]
        if fresh.get(name) != vector:
            print(f"FAIL {name}: differs from an independent recomputation")
            failures += 1
            continue
        payload = bytes.fromhex(vector["payload"])
        signature = bytes.fromhex(vector["signature"])
        recovered = coincurve.PublicKey.from_signature_and_message(
            signature, payload, hasher=lambda m: hashlib.sha256(m).digest()).format(compressed=True)
        if recovered.hex() != vector["invite_public_key"]:
            failures += 1
            print(f"FAIL {name}: signature does not recover the invite key")
        decoded = base64.urlsafe_b64decode(vector["code"].replace("*", "") + "==")
        if decoded.hex() != vector["signed_invite"]:
            failures += 1
            print(f"FAIL {name}: code does not decode to the SignedInvite")
        opened = open_token(bytes.fromhex(vector["invite_private_key"]), vector["creator_inbox_id"],
                            bytes.fromhex(vector["token"]))
        if opened != vector["group_id"]:
            failures += 1
            print(f"FAIL {name}: token opens to {opened!r}")
    if failures:
        sys.exit(1)
    print(f"{len(stored)} Kith invite vectors verified and decrypted")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        with open(sys.argv[2], "w") as f:
            json.dump(vectors(), f, indent=2, ensure_ascii=False)
            f.write("\n")
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        print(__doc__)
        sys.exit(2)
