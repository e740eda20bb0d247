"""An independent implementation of the Kith feed format v1 (docs/FEED-FORMAT.md), written
against Python's `cryptography` package only. Used by the interop tests to check feeds that
`kith` exports and to produce feeds that `kith feed verify` must accept.
"""
import base64
import hashlib
import json
import struct

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.exceptions import InvalidSignature

MAX_SAFE = 2**53 - 1


class Rejected(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64u(text: str, length=None) -> bytes:
    if "=" in text or len(text) % 4 == 1 or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for c in text):
        raise Rejected("invalid_field", "not canonical base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64u(data) != text:
        raise Rejected("invalid_field", "non-canonical base64url trailing bits")
    if length is not None and len(data) != length:
        raise Rejected("invalid_field", "wrong length")
    return data


def _no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise Rejected("malformed_json", "duplicate key " + key)
        seen[key] = value
    return seen


def _reject_float(text):
    raise Rejected("malformed_json", "non-integer number " + text)


def canonical(value) -> bytes:
    """RFC 8785 on Kith's subset: integers only, keys sorted by UTF-16 code units."""
    def emit(v):
        if v is None:
            return "null"
        if v is True:
            return "true"
        if v is False:
            return "false"
        if isinstance(v, int):
            if abs(v) > MAX_SAFE:
                raise Rejected("malformed_json", "integer out of range")
            return str(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, list):
            return "[" + ",".join(emit(x) for x in v) + "]"
        if isinstance(v, dict):
            keys = sorted(v.keys(), key=lambda k: k.encode("utf-16-be"))
            return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + emit(v[k]) for k in keys) + "}"
        raise Rejected("malformed_json", "unsupported value")
    return emit(value).encode("utf-8")


def parse_canonical(line: bytes):
    try:
        value = json.loads(line.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_float=_reject_float, parse_constant=_reject_float)
    except Rejected:
        raise
    except (ValueError, UnicodeDecodeError) as error:
        raise Rejected("malformed_json", str(error))
    if canonical(value) != line:
        raise Rejected("not_canonical", "bytes are not their canonical serialization")
    return value


def feed_id(public_key_raw: bytes) -> str:
    return b64u(hashlib.sha256(public_key_raw).digest())


def message_id(line: bytes) -> str:
    return b64u(hashlib.sha256(line).digest())


def hkdf(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt or None, info=info).derive(ikm)


class Keys:
    """Keys derived from a 32-byte seed exactly as docs/FEED-FORMAT.md section 2 says."""
    def __init__(self, seed: bytes):
        self.signing = Ed25519PrivateKey.from_private_bytes(hkdf(seed, b"", b"identity_key", 32))
        self.dh = X25519PrivateKey.from_private_bytes(hkdf(seed, b"", b"dh_key", 32))
        self.pq_seed = hkdf(seed, b"", b"pq_key", 64)
        self.journal = hkdf(seed, b"ProximityApp_Journal_v1", b"journal_key", 32)
        raw = self.signing.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.identity_key_raw = raw
        self.identity_key = b64u(raw)
        self.dh_key = b64u(self.dh.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
        self.feed_id = feed_id(raw)


def self_nonce(sequence: int, feed: str) -> bytes:
    return hashlib.sha256(struct.pack(">Q", sequence) + feed.encode("ascii")).digest()[:12]


def seal_self(journal_key: bytes, sequence: int, feed: str, plaintext: bytes) -> bytes:
    return ChaCha20Poly1305(journal_key).encrypt(self_nonce(sequence, feed), plaintext, None)


def open_self(journal_key: bytes, sequence: int, feed: str, sealed: bytes) -> bytes:
    return ChaCha20Poly1305(journal_key).decrypt(self_nonce(sequence, feed), sealed, None)


FIELDS = ["audience", "content_enc", "feed_id", "previous", "sequence", "signature", "timestamp", "type", "version"]


def sign_envelope(keys: Keys, sequence: int, previous, timestamp: int, type_: str, audience: str, content: bytes) -> bytes:
    body = {"audience": audience, "content_enc": b64u(content), "feed_id": keys.feed_id, "previous": previous,
            "sequence": sequence, "timestamp": timestamp, "type": type_, "version": 1}
    body["signature"] = b64u(keys.signing.sign(canonical(body)))
    return canonical(body)


def sign_stub(keys: Keys, envelope_line: bytes) -> bytes:
    """The signed stub that replicates in place of one of the author's self envelopes."""
    value = json.loads(envelope_line)
    stub = {"feed_id": value["feed_id"], "message_id": message_id(envelope_line), "previous": value["previous"],
            "sequence": value["sequence"], "stub": "self"}
    stub["signature"] = b64u(keys.signing.sign(canonical(stub)))
    return canonical(stub)


STUB_FIELDS = ["feed_id", "message_id", "previous", "sequence", "signature", "stub"]


def verify_lines(identity_key_raw: bytes, lines):
    """Returns (accepted, rejections[(line, sequence, code, message)])."""
    public = Ed25519PublicKey.from_public_bytes(identity_key_raw)
    expected_feed = feed_id(identity_key_raw)
    accepted, rejections = 0, []
    expected, last_id = 0, None
    for number, line in enumerate(lines, start=1):
        if not line:
            continue
        sequence = None
        value = None
        try:
            value = parse_canonical(line)
            if not isinstance(value, dict):
                raise Rejected("not_an_object", "not an object")
            sequence = value.get("sequence")
            if "stub" in value:
                if value["stub"] != "self" or sorted(value) != STUB_FIELDS:
                    raise Rejected("invalid_field", "malformed stub")
                fields = STUB_FIELDS
            else:
                fields = FIELDS
                for field in FIELDS:
                    if field not in value:
                        raise Rejected("missing_field", field)
                if value["version"] != 1:
                    raise Rejected("unsupported_version", "version %r" % value["version"])
                unb64u(value["content_enc"])
            if sequence != expected:
                raise Rejected("sequence_gap", "expected %d, found %r" % (expected, sequence))
            if value["feed_id"] != expected_feed:
                raise Rejected("feed_id_mismatch", "feed_id does not match the key")
            signature = unb64u(value["signature"], 64)
            unsigned = {k: v for k, v in value.items() if k != "signature"}
            try:
                public.verify(signature, canonical(unsigned))
            except InvalidSignature:
                raise Rejected("bad_signature", "signature does not verify")
            if sequence == 0 and value["previous"] is not None:
                raise Rejected("invalid_previous", "genesis must have previous null")
            if sequence > 0 and value["previous"] != last_id:
                raise Rejected("chain_broken", "previous does not match the id of the entry before")
            accepted += 1
        except Rejected as error:
            rejections.append((number, sequence, error.code, str(error)))
        is_stub = isinstance(value, dict) and "stub" in value and isinstance(value.get("message_id"), str)
        last_id = value["message_id"] if is_stub else message_id(line)
        expected = (sequence + 1) if isinstance(sequence, int) else expected + 1
    return accepted, rejections
