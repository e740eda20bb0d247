#!/usr/bin/env python3
"""Verifies TestVectors/ratchet/ed25519-to-x25519.json against libsodium (PyNaCl).

For every valid vector: the Ed25519 public key derives from the seed, and libsodium's
crypto_sign_ed25519_pk_to_curve25519 / crypto_sign_ed25519_sk_to_curve25519 give the published
X25519 public and private keys. Every invalid vector must be rejected by libsodium too.
Also checks that both converted key pairs agree on an X25519 shared secret.

Usage: check_conversion.py [path/to/ed25519-to-x25519.json]   (needs: pip install pynacl)
Exit status 0 when everything matches.
"""
import json
import os
import sys

import nacl.bindings as sodium
import nacl.exceptions


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "TestVectors", "ratchet", "ed25519-to-x25519.json")
    path = sys.argv[1] if len(sys.argv) > 1 else default
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)

    failures = 0
    converted = []
    for index, vector in enumerate(data["valid"]):
        seed = bytes.fromhex(vector["ed25519_seed"])
        public, secret = sodium.crypto_sign_seed_keypair(seed)
        x_public = sodium.crypto_sign_ed25519_pk_to_curve25519(public)
        x_private = sodium.crypto_sign_ed25519_sk_to_curve25519(secret)
        checks = {
            "ed25519_public": public.hex() == vector["ed25519_public"],
            "x25519_public": x_public.hex() == vector["x25519_public"],
            "x25519_private": x_private.hex() == vector["x25519_private"],
            "private matches public": sodium.crypto_scalarmult_base(x_private) == x_public,
        }
        for name, ok in checks.items():
            if not ok:
                failures += 1
                print(f"valid[{index}]: {name} mismatch")
        converted.append((x_private, x_public))

    for index in range(len(converted) - 1):
        (a_private, a_public), (b_private, b_public) = converted[index], converted[index + 1]
        if sodium.crypto_scalarmult(a_private, b_public) != sodium.crypto_scalarmult(b_private, a_public):
            failures += 1
            print(f"valid[{index}] and valid[{index + 1}]: X25519 disagreement")

    for index, vector in enumerate(data["invalid"]):
        point = bytes.fromhex(vector["ed25519_public"])
        try:
            sodium.crypto_sign_ed25519_pk_to_curve25519(point)
        except (nacl.exceptions.RuntimeError, nacl.exceptions.ValueError, RuntimeError, ValueError):
            continue
        failures += 1
        print(f"invalid[{index}] ({vector['reason']}): libsodium accepted it")

    total = len(data["valid"]) + len(data["invalid"])
    if failures:
        print(f"FAIL: {failures} mismatches in {total} vectors")
        return 1
    print(f"OK: {len(data['valid'])} valid and {len(data['invalid'])} invalid conversion vectors match libsodium")
    return 0


if __name__ == "__main__":
    sys.exit(main())
