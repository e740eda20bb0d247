"""Kith's strict Ed25519 rule (docs/FEED-FORMAT.md section 2.3): edge-case vectors.

Usage:
  strict_vectors.py write FILE   generate TestVectors/ed25519/strict-v1.json
  strict_vectors.py check FILE   regenerate independently and compare; check the plain cases
                                 with Python `cryptography` (OpenSSL) as a second implementation

The curve arithmetic below is a small, slow, readable model of RFC 8032 section 5.1 (extended
twisted Edwards coordinates); it is only used to build and check vectors, never for secrets.
"""
import hashlib
import json
import sys

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def inverse(x):
    return pow(x, P - 2, P)


def recover_x(y, sign):
    """The x of the point with this y and sign bit, or None when there is none."""
    if y >= P:
        return None
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    x2 = u * inverse(v) % P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P != 0:
        return None
    if x & 1 != sign:
        x = P - x
    return x


class Point:
    """A point in extended coordinates (X:Y:Z:T) with x = X/Z, y = Y/Z, xy = T/Z."""

    def __init__(self, x, y):
        self.X, self.Y, self.Z, self.T = x % P, y % P, 1, x * y % P

    @staticmethod
    def extended(X, Y, Z, T):
        point = Point(0, 1)
        point.X, point.Y, point.Z, point.T = X, Y, Z, T
        return point

    def __add__(self, other):
        a = (self.Y - self.X) * (other.Y - other.X) % P
        b = (self.Y + self.X) * (other.Y + other.X) % P
        c = 2 * self.T * other.T * D % P
        d = 2 * self.Z * other.Z % P
        e, f, g, h = b - a, d - c, d + c, b + a
        return Point.extended(e * f % P, g * h % P, f * g % P, e * h % P)

    def __mul__(self, scalar):
        result, addend = Point(0, 1), self
        while scalar:
            if scalar & 1:
                result = result + addend
            addend = addend + addend
            scalar >>= 1
        return result

    def affine(self):
        zi = inverse(self.Z)
        return self.X * zi % P, self.Y * zi % P

    def __eq__(self, other):
        return self.affine() == other.affine()

    def encode(self):
        x, y = self.affine()
        return (y | ((x & 1) << 255)).to_bytes(32, "little")


def decode(encoding, strict):
    """Decodes a point; a permissive decoder reduces y modulo p (as some libraries do)."""
    value = int.from_bytes(encoding, "little")
    y, sign = value & ((1 << 255) - 1), value >> 255
    if y >= P:
        if strict:
            return None
        y -= P
    x = recover_x(y, sign)
    if x is None:
        return None
    if strict and x == 0 and sign:
        return None
    return Point(x, y)


B = Point(recover_x(4 * inverse(5) % P, 0), 4 * inverse(5) % P)
IDENTITY = Point(0, 1)
# A point of order 8: its y is a root of the equation that makes [4]T = (0, -1).
T8 = decode(bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"), strict=True)


def sha512_int(*parts):
    return int.from_bytes(hashlib.sha512(b"".join(parts)).digest(), "little")


def keypair(seed):
    digest = hashlib.sha512(seed).digest()
    scalar = int.from_bytes(digest[:32], "little")
    scalar &= (1 << 254) - 8
    scalar |= 1 << 254
    return scalar, digest[32:]


def sign(scalar, prefix, public, message):
    r = sha512_int(prefix, message) % L
    big_r = (B * r).encode()
    k = sha512_int(big_r, public, message) % L
    return big_r + ((r + k * scalar) % L).to_bytes(32, "little")


def cofactorless_permissive(public, message, signature):
    """[S]B == R + [k]A with y reduced mod p and S taken as is: what a lax verifier accepts."""
    a, r = decode(public, strict=False), decode(signature[:32], strict=False)
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    k = sha512_int(signature[:32], public, message) % L
    return B * s == r + a * k


def key_error(public):
    """The first rule of docs section 2.3 that a key breaks, or None."""
    point = decode(public, strict=True)
    if point is None:
        value = int.from_bytes(public, "little")
        y = value & ((1 << 255) - 1)
        if y >= P or (value >> 255 and recover_x(y, 0) == 0):
            return "non_canonical_encoding"
        return "not_on_curve"
    if point * 8 == IDENTITY:
        return "small_order"
    if not point * L == IDENTITY:
        return "not_in_prime_order_subgroup"
    return None


def signature_error(signature):
    r = int.from_bytes(signature[:32], "little") & ((1 << 255) - 1)
    if r >= P:
        return "non_canonical_encoding"
    if int.from_bytes(signature[32:], "little") >= L:
        return "non_canonical_scalar"
    return None


def strict_valid(public, message, signature):
    if key_error(public) or signature_error(signature):
        return False
    a, r = decode(public, strict=True), decode(signature[:32], strict=True)
    if r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    k = sha512_int(signature[:32], public, message) % L
    return B * s == r + a * k


def build():
    scalar, prefix = keypair(bytes(range(32)))
    public = (B * scalar).encode()
    message = b"kith strict ed25519 v1"
    cases = []

    def add(name, note, key, msg, sig):
        cases.append({
            "name": name,
            "note": note,
            "public_key_hex": key.hex(),
            "message_hex": msg.hex(),
            "signature_hex": sig.hex(),
            "key_error": key_error(key),
            "signature_error": signature_error(sig),
            "strict_valid": strict_valid(key, msg, sig),
            "cofactorless_permissive_valid": cofactorless_permissive(key, msg, sig),
        })

    good = sign(scalar, prefix, public, message)
    add("valid", "an ordinary signature", public, message, good)
    s = int.from_bytes(good[32:], "little")
    add("s_plus_l", "S + L: the same point equation, a malleated encoding", public, message,
        good[:32] + (s + L).to_bytes(32, "little"))
    # R = identity (r = 0), encoded with y = 1 + p: a lax decoder reads it as the identity.
    r_nc = (1 + P).to_bytes(32, "little")
    k = sha512_int(r_nc, public, message) % L
    add("r_non_canonical", "R encoded with y = 1 + p", public, message, r_nc + (k * scalar % L).to_bytes(32, "little"))
    r_id = IDENTITY.encode()
    k = sha512_int(r_id, public, message) % L
    add("r_identity", "R is the identity, canonically encoded (r = 0): valid; R's order is not checked",
        public, message, r_id + (k * scalar % L).to_bytes(32, "little"))
    # Keys that verify signatures they never made.
    forged_s = 1234567
    forged = (B * forged_s).encode() + forged_s.to_bytes(32, "little")
    add("key_identity", "A is the identity: [S]B = R holds for every message", IDENTITY.encode(), message, forged)
    t8 = T8.encode()
    for attempt in range(1000):
        msg = message + b" #%d" % attempt
        if sha512_int(forged[:32], t8, msg) % L % 8 == 0:
            add("key_order_8", "A has order 8 and 8 divides k: [k]A is the identity", t8, msg, forged)
            break
    mixed = (B * scalar + T8).encode()
    for attempt in range(1000):
        msg = message + b" mixed #%d" % attempt
        r = sha512_int(prefix, msg) % L
        big_r = (B * r).encode()
        k = sha512_int(big_r, mixed, msg) % L
        if k % 8 == 0:
            add("key_mixed_order", "A = aB + T8 and 8 divides k: a cofactorless verifier accepts, a cofactored one too, "
                "but for other messages they disagree", mixed, msg, big_r + ((r + k * scalar) % L).to_bytes(32, "little"))
            break
    add("key_non_canonical_y", "the identity encoded with y = 1 + p", (1 + P).to_bytes(32, "little"), message, forged)
    add("key_negative_zero", "x = 0 encoded with its sign bit set", (1 | (1 << 255)).to_bytes(32, "little"), message, forged)
    not_on_curve = next(y for y in range(2, 100) if recover_x(y, 0) is None)
    add("key_not_on_curve", "a y with no x on the curve", not_on_curve.to_bytes(32, "little"), message, good)
    return {
        "description": "Kith's strict Ed25519 rule (docs/FEED-FORMAT.md section 2.3): keys must be canonical, on the curve, "
                       "not of small order and in the prime-order subgroup; signatures must have a canonical R and S < L; "
                       "then [S]B = R + [k]A (cofactorless). key_error/signature_error name the first rule broken; "
                       "strict_valid is Kith's verdict; cofactorless_permissive_valid is what a verifier without these "
                       "checks (y reduced mod p, any S) would say.",
        "version": 1,
        "cases": cases,
    }


def check_with_cryptography(document):
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    by_name = {case["name"]: case for case in document["cases"]}
    for name, expected in (("valid", True), ("s_plus_l", False)):
        case = by_name[name]
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(case["public_key_hex"]))
        try:
            key.verify(bytes.fromhex(case["signature_hex"]), bytes.fromhex(case["message_hex"]))
            accepted = True
        except InvalidSignature:
            accepted = False
        if accepted != expected:
            raise SystemExit(f"cryptography disagrees on {name}: accepted={accepted}")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "check"):
        raise SystemExit(__doc__)
    document = build()
    text = json.dumps(document, indent=2, sort_keys=True) + "\n"
    if sys.argv[1] == "write":
        with open(sys.argv[2], "w") as handle:
            handle.write(text)
        return
    with open(sys.argv[2]) as handle:
        if handle.read() != text:
            raise SystemExit("the published vectors differ from an independent regeneration")
    check_with_cryptography(document)
    print(f"{len(document['cases'])} strict Ed25519 cases regenerate identically; OpenSSL agrees on the plain ones")


if __name__ == "__main__":
    main()
