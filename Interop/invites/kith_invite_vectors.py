#!/usr/bin/env python3
"""Independent check of Kith-made invites (docs/INVITES.md), written for Kith from its documented derivations.

From a fixed 32-byte device seed, derives (HKDF-SHA256, `cryptography`): the Ed25519 identity key ("identity_key")
and the feed id (SHA-256 of it), the secp256k1 invite key (salt "Kith_Invite_v1", info "invite_key"); then builds the
Convos payload with creator_inbox_id = feed id, the conversation token (fixed nonce), the recoverable signature
(coincurve, RFC 6979) and the slug. Reuses the Convos wire helpers of invite_vectors.py.

The "strangers" vector also carries Kith's reach field (field 1000 of the payload, inside the signed bytes): the
creator's compact contact card (version 1: identity key, X25519 dh key from HKDF info "dh_key", a commitment, the
name, an Ed25519 signature over "Kith_CompactCard_v1" and the preceding bytes), a server URL and a join code. Its
commitment names a stand-in full card (SHA-256 of "Kith_CardCommitment_v1" and a fixed text): a vector of the
payload bytes, not of the exchange. The check also reads that payload as a Convos parser does (fields 1-10, unknown
fields skipped) and verifies the compact card.

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
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey  # noqa: E402
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


STAND_IN_CARD = b"stand-in full card of the strangers vector"


def raw(public_key):
    return public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def compact_card(seed, name):
    """Compact card version 1 of the identity of `seed` (no rotation: flags 0)."""
    ed = Ed25519PrivateKey.from_private_bytes(hkdf(seed, b"", b"identity_key"))
    dh = X25519PrivateKey.from_private_bytes(hkdf(seed, b"", b"dh_key"))
    commitment = hashlib.sha256(b"Kith_CardCommitment_v1" + STAND_IN_CARD).digest()
    name_bytes = name.encode()
    body = bytes([1, 0]) + raw(ed.public_key()) + raw(dh.public_key()) + commitment + bytes([len(name_bytes)]) + name_bytes
    return body + ed.sign(b"Kith_CompactCard_v1" + body)


def reach_bytes(reach):
    return (field_bytes(1, bytes.fromhex(reach["compact_card"])) + field_bytes(2, reach["server"].encode())
            + field_bytes(3, reach["join_code"].encode()))


def make(name, seed_byte, group_id, fields, reach=None):
    seed = bytes([seed_byte]) * 32
    identity_key, feed, invite_key = identity(seed)
    priv = coincurve.PrivateKey(invite_key)
    token = seal_token(invite_key, feed.hex(), group_id, TOKEN_NONCE)
    payload = payload_bytes(dict(fields, token=token, inbox=feed))
    if reach is not None:
        reach = dict(reach, compact_card=compact_card(seed, reach.pop("card_name")).hex())
        payload += field_bytes(1000, reach_bytes(reach))
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
        **({"reach": reach} if reach is not None else {}),
    }


def vectors():
    group = b64url(bytes(range(32)))
    return [
        make("minimal", 0x07, group, {"tag": "AbCdEf0123"}),
        make("preview-single-use", 0xA1, group, {
            "tag": "Kx7pQ2mZ9a", "name": "Climbing", "description": "Saturday at the wall",
            "imageURL": "https://example.com/wall.png", "conversationExpiresAtUnix": 1893456000,
            "expiresAtUnix": 1790086400, "expiresAfterUse": True, "emoji": "\U0001F9D7"}),
        make("strangers", 0xA1, group, {"tag": "Kx7pQ2mZ9a", "name": "Climbing", "expiresAfterUse": True},
             reach={"card_name": "Alice", "server": "https://kith.example.org", "join_code": "k3v9x2m8q4w7z1p5r6t0"}),
    ]


def check_reach(vector, payload):
    """A Convos parser's view (fields 1-10, field 1000 skipped) and the compact card's signature and feed id."""
    failures = 0
    name = vector["name"]
    seed = bytes.fromhex(vector["seed"])
    token = bytes.fromhex(vector["token"])
    convos_fields = payload_bytes(dict(vector["fields"], token=token, inbox=bytes.fromhex(vector["creator_inbox_id"])))
    tail = field_bytes(1000, reach_bytes(vector["reach"]))
    if payload != convos_fields + tail or tail[:2] != bytes([0xC2, 0x3E]):
        failures += 1
        print(f"FAIL {name}: the payload is not Convos' fields followed by field 1000")
    card = bytes.fromhex(vector["reach"]["compact_card"])
    identity_key = card[2:34]
    try:
        Ed25519PublicKey.from_public_bytes(identity_key).verify(card[-64:], b"Kith_CompactCard_v1" + card[:-64])
    except Exception:  # noqa: BLE001
        failures += 1
        print(f"FAIL {name}: the compact card's signature does not verify")
    if hashlib.sha256(identity_key).hexdigest() != vector["creator_inbox_id"] or card != compact_card(seed, "Alice"):
        failures += 1
        print(f"FAIL {name}: the compact card's feed id is not the creator inbox id")
    return failures


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
        if "reach" in vector:
            failures += check_reach(vector, payload)
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
