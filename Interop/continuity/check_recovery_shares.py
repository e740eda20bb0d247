#!/usr/bin/env python3
"""Independent check of Kith's recovery shares (docs/CONTINUITY.md, "Recovery through contacts").

Plain Python: GF(2^8) arithmetic mod x^8 + x^4 + x^3 + x + 1 written here, hashlib for SHA-256, and the X25519 of
`cryptography` for the request's public key. For every case of TestVectors/continuity/recovery-shares-v1.json it
re-splits the secret from the published randomness and compares the encoded shares byte for byte, combines every
threshold-sized subset (and all shares) and checks the integrity digest, checks that one share fewer cannot pass the
digest, and checks that every hostile combination is refused for the published reason. It also rebuilds the
request's encoding and safety code.
"""
import hashlib
import itertools
import json
import struct
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives import serialization

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "TestVectors/continuity/recovery-shares-v1.json"
DIGEST_LABEL = b"Kith_RecoveryDigest_v1"


def gf_mul(a, b):
    product = 0
    while b:
        if b & 1:
            product ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11B
        b >>= 1
    return product


def gf_inv(a):
    # Brute force: the field is small and this must not share code with Kith's exponentiation.
    for candidate in range(1, 256):
        if gf_mul(a, candidate) == 1:
            return candidate
    raise ValueError("0 has no inverse")


def poly_eval(coefficients, x):
    result = 0
    for power, coefficient in enumerate(coefficients):
        term = coefficient
        for _ in range(power):
            term = gf_mul(term, x)
        result ^= term
    return result


def digest(secret, set_id, generation, threshold, count, owner):
    return hashlib.sha256(DIGEST_LABEL + set_id + struct.pack(">IBB", generation, threshold, count) + owner
                          + struct.pack(">H", len(secret)) + secret).digest()


def encode_share(set_id, generation, threshold, count, index, owner, value):
    return (b"KRS\x01" + set_id + struct.pack(">IBBB", generation, threshold, count, index) + owner
            + struct.pack(">H", len(value)) + value)


def decode_share(data):
    if len(data) < 61 or data[:4] != b"KRS\x01":
        raise ValueError("not a v1 share")
    set_id = data[4:20]
    generation, threshold, count, index = struct.unpack(">IBBB", data[20:27])
    owner = data[27:59]
    (length,) = struct.unpack(">H", data[59:61])
    value = data[61:]
    if len(value) != length or not (2 <= threshold <= 16 and threshold <= count <= 16 and 1 <= index <= count):
        raise ValueError("bad share fields")
    if length <= 32:
        raise ValueError("value too short")
    return dict(set_id=set_id, generation=generation, threshold=threshold, count=count, index=index, owner=owner,
                value=value)


def split(secret, owner, threshold, count, generation, randomness):
    set_id, coefficients = randomness[:16], randomness[16:]
    value = secret + digest(secret, set_id, generation, threshold, count, owner)
    degree = threshold - 1
    assert len(coefficients) == len(value) * degree
    shares = []
    for index in range(1, count + 1):
        share_value = bytes(
            poly_eval([value[position]] + list(coefficients[position * degree:(position + 1) * degree]), index)
            for position in range(len(value)))
        shares.append(encode_share(set_id, generation, threshold, count, index, owner, share_value))
    return set_id, shares


def interpolate_at_zero(points):
    length = len(points[0][1])
    result = bytearray(length)
    for i, (xi, yi) in enumerate(points):
        weight = 1
        for j, (xj, _) in enumerate(points):
            if j != i:
                weight = gf_mul(weight, gf_mul(xj, gf_inv(xj ^ xi)))
        for position in range(length):
            result[position] ^= gf_mul(yi[position], weight)
    return bytes(result)


class Refused(Exception):
    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def combine(encoded_shares):
    shares = [decode_share(data) for data in encoded_shares]
    first = shares[0]
    for share in shares:
        for field in ("set_id", "generation", "threshold", "count", "owner"):
            if share[field] != first[field]:
                raise Refused("different_sets")
        if len(share["value"]) != len(first["value"]):
            raise Refused("different_sets")
    indexes = [share["index"] for share in shares]
    if len(set(indexes)) != len(indexes):
        raise Refused("duplicate_share")
    if len(shares) < first["threshold"]:
        raise Refused("not_enough_shares")
    value = interpolate_at_zero([(share["index"], share["value"]) for share in shares])
    secret, tag = value[:-32], value[-32:]
    expected = digest(secret, first["set_id"], first["generation"], first["threshold"], first["count"], first["owner"])
    if tag != expected:
        raise Refused("integrity_check_failed")
    return secret


def below_threshold_fails_digest(encoded_shares, threshold):
    """Interpolating threshold - 1 points (as if the threshold were lower) must not give a secret that passes."""
    shares = [decode_share(data) for data in encoded_shares[:threshold - 1]]
    if len(shares) < 2:
        return True
    value = interpolate_at_zero([(share["index"], share["value"]) for share in shares])
    first = shares[0]
    expected = digest(value[:-32], first["set_id"], first["generation"], first["threshold"], first["count"],
                      first["owner"])
    return value[-32:] != expected


def safety_code(encoded_request):
    number = int.from_bytes(hashlib.sha256(b"Kith_RecoverySafety_v1" + encoded_request).digest()[:8], "big")
    digits = "%012d" % (number % 10**12)
    return " ".join(digits[i:i + 4] for i in range(0, 12, 4))


def b64url(data):
    import base64
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main():
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else VECTORS
    vectors = json.loads(path.read_text())
    checked = 0
    for case in vectors["cases"]:
        secret = bytes.fromhex(case["secret_hex"])
        owner = bytes.fromhex(case["owner_feed_id_hex"])
        threshold, count = case["threshold"], case["share_count"]
        set_id, shares = split(secret, owner, threshold, count, case["generation"], bytes.fromhex(case["randomness_hex"]))
        published = [bytes.fromhex(text) for text in case["shares_hex"]]
        assert set_id.hex() == case["set_id_hex"], case["name"]
        assert digest(secret, set_id, case["generation"], threshold, count, owner).hex() == case["digest_hex"], case["name"]
        assert shares == published, f"{case['name']}: shares differ"
        assert b64url(published[0]) == case["share_text_first"], case["name"]
        subsets = list(itertools.combinations(published, threshold))
        for subset in subsets[:200]:
            assert combine(list(subset)) == secret, case["name"]
            checked += 1
        assert combine(published) == secret
        try:
            combine(published[:threshold - 1])
            raise AssertionError(f"{case['name']}: {threshold - 1} shares combined")
        except Refused as refusal:
            assert refusal.reason == "not_enough_shares"
        assert below_threshold_fails_digest(published, threshold), case["name"]
    for hostile in vectors["hostile"]:
        try:
            combine([bytes.fromhex(text) for text in hostile["shares_hex"]])
            raise AssertionError(f"hostile case combined: {hostile['name']}")
        except Refused as refusal:
            assert refusal.reason == hostile["error"], f"{hostile['name']}: {refusal.reason} != {hostile['error']}"
        checked += 1
    request = vectors["request"]
    key = X25519PrivateKey.from_private_bytes(bytes.fromhex(request["private_key_hex"]))
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert public.hex() == request["public_key_hex"]
    encoded = b"KRQ\x01" + bytes.fromhex(request["owner_feed_id_hex"]) + public + bytes.fromhex(request["nonce_hex"])
    assert encoded.hex() == request["encoded_hex"]
    assert b64url(encoded) == request["text"]
    assert safety_code(encoded) == request["safety_code"]
    print(f"recovery shares: {len(vectors['cases'])} cases re-split byte for byte, {checked} combinations and "
          f"refusals checked, request and safety code rebuilt")


if __name__ == "__main__":
    main()
