#!/usr/bin/env python3
"""Independent check of Kith's published push vectors with Python `cryptography` only.

Written from RFC 8188, RFC 8291 and RFC 8292 (not from Kith's Swift code):
- aes128gcm-padded.json: re-derives the keys, decrypts the body, checks the 0x02 delimiter and the
  zero padding, and re-encrypts to the same bytes;
- vapid.json: parses `vapid t=..., k=...`, checks the JOSE header, verifies the raw r||s ES256
  signature and the aud/exp claims.
Usage: python3 check_push_vectors.py [folder]   (default: this file's folder)
"""
import base64, json, os, struct, sys
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hmac256(key, data):
    h = hmac.HMAC(key, hashes.SHA256())
    h.update(data)
    return h.finalize()


def private_key(raw):
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def public_bytes(key):
    return key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def check_message(v):
    ua = private_key(b64d(v["ua_private"]))
    ua_public = public_bytes(ua)
    assert ua_public == b64d(v["ua_public"]), "ua_public"
    auth = b64d(v["auth_secret"])
    body = b64d(v["body"])
    salt, rs, idlen = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
    as_public = body[21:21 + idlen]
    assert salt == b64d(v["salt"]) and rs == v["record_size"] and idlen == 65, "header"
    assert as_public == public_bytes(private_key(b64d(v["as_private"]))), "keyid"
    peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_public)
    ecdh = ua.exchange(ec.ECDH(), peer)
    ikm = hmac256(hmac256(auth, ecdh), b"WebPush: info\x00" + ua_public + as_public + b"\x01")
    prk = hmac256(salt, ikm)
    cek = hmac256(prk, b"Content-Encoding: aes128gcm\x00\x01")[:16]
    nonce = hmac256(prk, b"Content-Encoding: nonce\x00\x01")[:12]
    ciphertext = body[21 + idlen:]
    assert len(ciphertext) <= rs, "one record"
    record = AESGCM(cek).decrypt(nonce, ciphertext, None)
    plaintext = b64d(v["plaintext"])
    padding = v["padding"]
    assert record == plaintext + b"\x02" + b"\x00" * padding, "record layout"
    assert body[:21 + idlen] + AESGCM(cek).encrypt(nonce, record, None) == body, "re-encryption"
    return f"message: {len(body)} bytes, {len(plaintext)} plaintext, {padding} padding"


def check_vapid(v):
    header = v["authorization"]
    scheme, _, params = header.partition(" ")
    assert scheme.lower() == "vapid", "scheme"
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    token, key = fields["t"], b64d(fields["k"])
    assert key == public_bytes(private_key(b64d(v["vapid_private"]))), "k"
    h64, c64, s64 = token.split(".")
    jose = json.loads(b64d(h64))
    assert jose == {"typ": "JWT", "alg": "ES256"}, jose
    claims = json.loads(b64d(c64))
    sig = b64d(s64)
    assert len(sig) == 64, "raw r||s"
    r, s = int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")
    pub = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    pub.verify(utils.encode_dss_signature(r, s), f"{h64}.{c64}".encode(), ec.ECDSA(hashes.SHA256()))
    assert claims["aud"] == v["audience"], "aud"
    assert v["now"] < claims["exp"] <= v["now"] + 86400, "exp window"
    assert claims["sub"].startswith(("mailto:", "https:")), "sub"
    return f"vapid: ES256 signature verified, aud {claims['aud']}, exp now+{claims['exp'] - v['now']}s"


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    results = []
    with open(os.path.join(folder, "aes128gcm-padded.json")) as f:
        results.append(check_message(json.load(f)))
    with open(os.path.join(folder, "vapid.json")) as f:
        results.append(check_vapid(json.load(f)))
    rfc = os.path.join(folder, "..", "..", "Tests", "Vectors", "rfc8291", "appendix-a.json")
    if os.path.exists(rfc):
        with open(rfc) as f:
            a = json.load(f)
        v = {"ua_private": a["ua_private"], "ua_public": a["ua_public"], "auth_secret": a["auth_secret"], "body": a["body"],
             "salt": a["salt"], "record_size": a["record_size"], "as_private": a["as_private"], "padding": 0,
             "plaintext": base64.urlsafe_b64encode(a["plaintext_utf8"].encode()).decode().rstrip("=")}
        results.append("rfc8291 appendix A " + check_message(v))
    print("; ".join(results))


if __name__ == "__main__":
    main()
