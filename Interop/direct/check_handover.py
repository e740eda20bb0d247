#!/usr/bin/env python3
"""Independent check of Kith's one-time prekey handover (docs/FEED-FORMAT.md 12.12, batch wire
12.2.2) against TestVectors/direct/prekey-handover-v1.json, with Python `cryptography` only."""
import base64
import hashlib
import json
import struct
import sys
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

LABEL = b"Kith_PrekeyHandover_v1"


def b64u_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def parse(handover: bytes, issuer_key: bytes):
    """Returns (issuer feed id, recipient feed id, [(id, public key)]) or raises ValueError."""
    if len(handover) < 1 + 32 + 32 + 3 + 36 + 64:
        raise ValueError("truncated")
    if handover[0] != 0x01:
        raise ValueError("unknown version")
    body, signature = handover[:-64], handover[-64:]
    try:
        Ed25519PublicKey.from_public_bytes(issuer_key).verify(signature, LABEL + body)
    except InvalidSignature as error:
        raise ValueError("bad signature") from error
    issuer, recipient, batch = body[1:33], body[33:65], body[65:]
    if batch[0] != 0x01:
        raise ValueError("unknown batch version")
    (count,) = struct.unpack(">H", batch[1:3])
    if not 1 <= count <= 8192 or len(batch) != 3 + 36 * count:
        raise ValueError("batch length")
    entries = []
    for index in range(count):
        offset = 3 + 36 * index
        (prekey_id,) = struct.unpack(">I", batch[offset:offset + 4])
        if entries and prekey_id <= entries[-1][0]:
            raise ValueError("ids not increasing")
        entries.append((prekey_id, batch[offset + 4:offset + 36]))
    return issuer, recipient, entries


def main() -> int:
    root = Path(__file__).resolve().parents[2]
    vector = json.loads((root / "TestVectors/direct/prekey-handover-v1.json").read_text())
    issuer_key = b64u_decode(vector["issuer_identity_key"])
    handover = bytes.fromhex(vector["handover_hex"])
    assert b64u(handover) == vector["handover_text"], "text form is not base64url of the bytes"
    assert (LABEL + handover[:-64]).hex() == vector["signed_bytes_hex"], "signed bytes differ"
    issuer, recipient, entries = parse(handover, issuer_key)
    assert b64u(hashlib.sha256(issuer_key).digest()) == vector["issuer_feed_id"], "issuer feed id is not SHA-256 of the key"
    assert b64u(issuer) == vector["issuer_feed_id"], "issuer feed id differs"
    assert b64u(recipient) == vector["recipient_feed_id"], "recipient feed id differs"
    assert len(entries) == len(vector["prekeys"])
    for (prekey_id, public), expected in zip(entries, vector["prekeys"]):
        private = X25519PrivateKey.from_private_bytes(bytes.fromhex(expected["private_hex"]))
        derived = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        assert prekey_id == expected["id"] and public == derived == bytes.fromhex(expected["public_hex"]), f"prekey {prekey_id}"
    for case in vector["invalid"]:
        try:
            parse(bytes.fromhex(case["handover_hex"]), issuer_key)
        except ValueError:
            continue
        print(f"invalid case {case['name']} was accepted", file=sys.stderr)
        return 1
    print(f"OK: handover with {len(entries)} prekeys verified, {len(vector['invalid'])} invalid cases rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
