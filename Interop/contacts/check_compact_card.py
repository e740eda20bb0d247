#!/usr/bin/env python3
"""Independent check of Kith's compact contact card vectors (TestVectors/cards/compact-v1.json, docs/contacts.md):
parses the layout, recomputes the commitment to the full card, verifies the Ed25519 signature with `cryptography`,
checks that the keys match the full card's, and decodes the base32 text form with Python's standard library."""
import base64
import hashlib
import json
import os
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def fail(message):
    raise SystemExit(f"FAILED: {message}")


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "TestVectors", "cards", "compact-v1.json")
    with open(path, encoding="utf-8") as handle:
        vector = json.load(handle)
    full = bytes.fromhex(vector["full_card_hex"])
    compact = bytes.fromhex(vector["compact_hex"])

    text = vector["compact_text"]
    if not text.startswith("KC1:"):
        fail("text prefix")
    body = text[4:]
    if base64.b32decode(body + "=" * (-len(body) % 8)) != compact:
        fail("base32 text does not decode to the compact bytes")
    if any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" for c in body):
        fail("text leaves the QR alphanumeric-friendly base32 alphabet")

    if compact[0] != 1 or compact[1] != 0:
        fail(f"version/flags {compact[0]}/{compact[1]}")
    identity_key, dh_key, commitment = compact[2:34], compact[34:66], compact[66:98]
    name_length = compact[98]
    name = compact[99:99 + name_length].decode("utf-8")
    signature = compact[99 + name_length:]
    if len(signature) != 64:
        fail("signature length")
    if name != vector["display_name"]:
        fail("name")

    expected = hashlib.sha256(vector["commitment_label_ascii"].encode() + full).digest()
    if expected != commitment or commitment.hex() != vector["commitment_hex"]:
        fail("commitment does not match SHA-256(label || full card)")

    signed = vector["signature_label_ascii"].encode() + compact[:99 + name_length]
    try:
        Ed25519PublicKey.from_public_bytes(identity_key).verify(signature, signed)
    except InvalidSignature:
        fail("Ed25519 signature does not verify")
    tampered = bytearray(signed)
    tampered[-1] ^= 1
    try:
        Ed25519PublicKey.from_public_bytes(identity_key).verify(signature, bytes(tampered))
        fail("a tampered compact card verified")
    except InvalidSignature:
        pass

    # Full card layout (docs/FEED-FORMAT.md section 11): version | feed_id 32 | identity_key 32 | dh_key 32 | ...
    if full[0] != 1 or full[33:65] != identity_key or full[65:97] != dh_key:
        fail("the compact card's keys are not the full card's")
    if hashlib.sha256(identity_key).digest() != full[1:33]:
        fail("feed id is not SHA-256 of the identity key")
    print(f"compact card ok: {len(compact)} bytes, {len(text)} characters, commitment and signature verified")


if __name__ == "__main__":
    main()
