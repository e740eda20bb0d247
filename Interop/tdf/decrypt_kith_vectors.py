#!/usr/bin/env python3
"""Decrypt Kith's published NanoTDF vectors with Python `cryptography` only (an independent reader).

Usage: python3 Interop/tdf/decrypt_kith_vectors.py [TestVectors/nanotdf/kith-dialect-v1.json]
Written for this project from the format facts in docs/TDF.md; exits non-zero on any mismatch.
"""
import hashlib
import json
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def locator(data, i):
    proto = data[i]
    length = data[i + 1]
    kid = {0: 0, 1: 2, 2: 8, 3: 32}[proto >> 4]
    return i + 2 + length + kid


def decrypt(blob, scalar):
    assert blob[:2] == b"L1" and blob[2] in (0x4C, 0x4D), "magic"
    i = locator(blob, 3)
    if blob[2] == 0x4D:
        i += 1 + 33  # L1M: curve byte and recipient key
    ecc, cfg, ptype = blob[i], blob[i + 1], blob[i + 2]
    assert ecc == 0x00 and cfg & 0x0F == 0x05, "Kith writes P-256, GMAC binding, 128-bit tag"
    i += 3
    n = int.from_bytes(blob[i:i + 2], "big")
    content = blob[i + 2:i + 2 + n]
    i += 2 + n
    binding = blob[i:i + 8]
    assert binding == hashlib.sha256(content).digest()[-8:], "policy binding"
    i += 8
    eph = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), blob[i:i + 33])
    i += 33
    key = ec.derive_private_key(int.from_bytes(scalar, "big"), ec.SECP256R1())
    z = key.exchange(ec.ECDH(), eph)
    salt = hashlib.sha256(bytes(blob[:3])).digest()
    dek = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"").derive(z)
    if ptype == 2:
        AESGCM(dek).decrypt(bytes(12), bytes(content), None)  # policy tag must verify
    length = int.from_bytes(blob[i:i + 3], "big")
    iv = blob[i + 3:i + 6]
    body = blob[i + 6:i + 3 + length]
    assert i + 3 + length == len(blob), "no trailing bytes"
    return dek, AESGCM(dek).decrypt(bytes(9) + iv, bytes(body), None)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "TestVectors/nanotdf/kith-dialect-v1.json"
    vectors = json.load(open(path))["vectors"]
    for v in vectors:
        dek, plain = decrypt(bytes.fromhex(v["nanotdf_hex"]), bytes.fromhex(v["recipient_private_key_scalar_hex"]))
        assert dek.hex() == v["dek_hex"], v["name"] + ": DEK"
        assert plain.decode() == v["plaintext_utf8"], v["name"] + ": plaintext"
        print("ok", v["name"])
    print(f"{len(vectors)} Kith NanoTDF vectors decrypted by Python cryptography")


if __name__ == "__main__":
    main()
