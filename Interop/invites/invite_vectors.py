#!/usr/bin/env python3
"""Independent implementation of Convos signed invites (current and legacy formats), for Kith's cross-check.

Written for Kith from Convos' published wire facts (xmtplabs/convos-ios ConvosInvitesCore; no Convos code): the protobuf is
encoded by hand, secp256k1 recoverable ECDSA comes from coincurve, Keccak-256 from pycryptodome, HKDF and
ChaCha20-Poly1305 from `cryptography`, DEFLATE from Python's zlib.

  invite_vectors.py generate OUT.json   write the vectors
  invite_vectors.py check FILE.json     recompute every vector and verify every slug; exit 1 on any difference
"""
import base64
import hashlib
import json
import sys
import zlib

import coincurve
from Crypto.Hash import keccak
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_A = bytes.fromhex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
KEY_B = bytes.fromhex("c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4")
TOKEN_NONCE = bytes(range(12))


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_bytes(number, value):
    return varint(number << 3 | 2) + varint(len(value)) + value


def field_sfixed64(number, value):
    return varint(number << 3 | 1) + (value & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little")


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def keccak256(data):
    return keccak.new(digest_bits=256, data=data).digest()


def address(pub65):
    return keccak256(pub65[1:])[-20:]


def inbox_id(pub65, nonce):
    return hashlib.sha256(("0x" + address(pub65).hex() + str(nonce)).encode()).digest()


def token_key(private_key, inbox_hex):
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"ConvosInviteV1",
                info=b"inbox:" + inbox_hex.encode()).derive(private_key)


def pack_id(conversation_id):
    import uuid
    try:
        if len(conversation_id) == 36:
            return b"\x01" + uuid.UUID(conversation_id).bytes
    except ValueError:
        pass
    raw = conversation_id.encode()
    if len(raw) <= 255:
        return b"\x02" + bytes([len(raw)]) + raw
    return b"\x02\x00" + len(raw).to_bytes(2, "big") + raw


def seal_token(private_key, inbox_hex, conversation_id, nonce):
    aead = ChaCha20Poly1305(token_key(private_key, inbox_hex))
    return b"\x01" + nonce + aead.encrypt(nonce, pack_id(conversation_id), inbox_hex.encode())


def open_token(private_key, inbox_hex, token):
    assert token[0] == 1 and len(token) >= 32
    aead = ChaCha20Poly1305(token_key(private_key, inbox_hex))
    plain = aead.decrypt(token[1:13], token[13:], inbox_hex.encode())
    if plain[0] == 1:
        import uuid
        return str(uuid.UUID(bytes=plain[1:17]))
    length = plain[1]
    start = 2
    if length == 0:
        length = int.from_bytes(plain[2:4], "big")
        start = 4
    assert len(plain) == start + length
    return plain[start:].decode()


def payload_bytes(fields, legacy=False, explicit_false=False):
    out = b""
    if legacy:
        out += field_bytes(1, b64url(fields["token"]).encode())
        out += field_bytes(2, fields["inbox"].hex().encode())
    else:
        out += field_bytes(1, fields["token"])
        out += field_bytes(2, fields["inbox"])
    out += field_bytes(3, fields["tag"].encode())
    for number, key in ((4, "name"), (5, "description"), (6, "imageURL")):
        if fields.get(key) is not None:
            out += field_bytes(number, fields[key].encode())
    for number, key in ((7, "conversationExpiresAtUnix"), (8, "expiresAtUnix")):
        if fields.get(key) is not None:
            if legacy:
                out += field_bytes(number, field_varint(1, fields[key]))
            else:
                out += field_sfixed64(number, fields[key])
    if fields.get("expiresAfterUse") or explicit_false:
        out += field_varint(9, 1 if fields.get("expiresAfterUse") else 0)
    if fields.get("emoji") is not None and not legacy:
        out += field_bytes(10, fields["emoji"].encode())
    return out


def frame(signed, compress, zlib_wrapped=False):
    if not compress:
        return signed
    if zlib_wrapped:
        body = zlib.compress(signed, 9)
    else:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        body = c.compress(signed) + c.flush()
    framed = b"\x1f" + len(signed).to_bytes(4, "big") + body
    assert len(framed) < len(signed), "compression must pay"
    return framed


def slug(data, separators=True):
    text = b64url(data)
    if not separators:
        return text
    return "*".join(text[i:i + 300] for i in range(0, len(text), 300))


def make(name, key, nonce, conversation_id, fields, legacy=False, explicit_false=False, compress=False,
         zlib_wrapped=False):
    priv = coincurve.PrivateKey(key)
    pub = priv.public_key.format(compressed=False)
    inbox = inbox_id(pub, nonce)
    token = seal_token(key, inbox.hex(), conversation_id, TOKEN_NONCE)
    fields = dict(fields, token=token, inbox=inbox)
    payload = payload_bytes(fields, legacy=legacy, explicit_false=explicit_false)
    signature = priv.sign_recoverable(payload, hasher=lambda m: hashlib.sha256(m).digest())
    signed = field_bytes(1, payload) + field_bytes(2, signature)
    code = slug(frame(signed, compress, zlib_wrapped), separators=not legacy)
    expected = {k: v for k, v in fields.items() if k not in ("token", "inbox")}
    return {
        "name": name,
        "private_key": key.hex(),
        "public_key": pub.hex(),
        "address": address(pub).hex(),
        "inbox_nonce": nonce,
        "inbox_id": inbox.hex(),
        "conversation_id": conversation_id,
        "token_nonce": TOKEN_NONCE.hex(),
        "token": token.hex(),
        "legacy": legacy,
        "kith_serialization": not legacy and not explicit_false,
        "compressed": compress,
        "zlib_wrapped": zlib_wrapped,
        "payload": payload.hex(),
        "signature": signature.hex(),
        "signed_invite": signed.hex(),
        "slug": code,
        "url": "https://popup.convos.org/v2?i=" + code,
        "fields": expected,
    }


def vectors():
    group = "0123456789abcdef0123456789abcdef"
    full = {"tag": "Kx7pQ2mZ9a", "name": "Book club", "description": "", "imageURL": "https://example.com/club.png",
            "conversationExpiresAtUnix": 1893456000, "expiresAtUnix": 1861920000, "expiresAfterUse": True,
            "emoji": "\U0001F3AD"}
    return [
        make("minimal", KEY_A, 0, group, {"tag": "AbCdEf1234"}),
        make("all-fields-nonce-1", KEY_B, 1, group, full),
        make("uuid-conversation-id", KEY_A, 0, "5f0c8a2e-3b1d-4e6f-9a7b-1c2d3e4f5a6b", {"tag": "Uuid000001"}),
        make("protobufjs-explicit-false", KEY_B, 1, group, {"tag": "CliTag0001", "name": "cli"}, explicit_false=True),
        make("long-token-separators", KEY_A, 0, "g" * 400, {"tag": "LongTok001"}),
        make("compressed-raw-deflate", KEY_A, 0, group, {"tag": "Deflate001", "description": "la " * 200}, compress=True),
        make("compressed-zlib-cli", KEY_B, 1, group, {"tag": "ZlibCli001", "description": "tra " * 150}, compress=True,
             zlib_wrapped=True),
        make("legacy-oct-2025", KEY_A, 0, group, {"tag": "Legacy0001", "name": "old", "expiresAtUnix": 1761955200,
                                                  "conversationExpiresAtUnix": 1762041600}, legacy=True),
        make("expired", KEY_A, 0, group, {"tag": "Expired001", "expiresAtUnix": 1700000000}),
    ]


def decode_slug(code):
    data = b64url_decode(code.replace("*", ""))
    if data[0] == 0x1F:
        size = int.from_bytes(data[1:5], "big")
        assert 0 < size <= 1 << 20
        body = data[5:]
        try:
            signed = zlib.decompress(body, -15)
        except zlib.error:
            signed = zlib.decompress(body)
        assert len(signed) == size
        return signed
    return data


def check(path):
    stored = json.load(open(path))
    fresh = vectors()
    failures = 0
    for old, new in zip(stored["vectors"], fresh):
        if old != new:
            print(f"FAIL {old['name']}: differs from a fresh computation")
            failures += 1
            continue
        signed = decode_slug(old["slug"])
        assert signed.hex() == old["signed_invite"]
        payload, signature = bytes.fromhex(old["payload"]), bytes.fromhex(old["signature"])
        recovered = coincurve.PublicKey.from_signature_and_message(
            signature, payload, hasher=lambda m: hashlib.sha256(m).digest()).format(compressed=False)
        if recovered.hex() != old["public_key"] or inbox_id(recovered, old["inbox_nonce"]).hex() != old["inbox_id"]:
            print(f"FAIL {old['name']}: signature does not bind to the inbox id")
            failures += 1
        if open_token(bytes.fromhex(old["private_key"]), old["inbox_id"], bytes.fromhex(old["token"])) != old["conversation_id"]:
            print(f"FAIL {old['name']}: token does not open")
            failures += 1
    if len(stored["vectors"]) != len(fresh):
        print("FAIL vector count differs")
        failures += 1
    print(f"invite vectors: {len(fresh) - failures} of {len(fresh)} match")
    return failures == 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        with open(sys.argv[2], "w") as out:
            json.dump({"about": "Convos-format invite vectors made by Interop/invites/invite_vectors.py "
                                "(independent Python implementation); fixed keys, fixed token nonce, RFC 6979 signatures.",
                       "vectors": vectors()}, out, indent=1, ensure_ascii=False)
            out.write("\n")
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        sys.exit(0 if check(sys.argv[2]) else 1)
    else:
        print(__doc__)
        sys.exit(2)
