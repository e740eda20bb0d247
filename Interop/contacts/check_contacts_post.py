#!/usr/bin/env python3
"""Decrypts a Kith `contacts` post as its recipient, using only Python's `cryptography` package
and docs/contacts.md (the v1 recipient map), from TestVectors/contacts/contacts-v1.json.

Also checks the contact card (layout, feed id, both signatures) and the attachment blob.
Usage: check_contacts_post.py [VECTOR_FILE]   (exit 0 and a final "OK ..." line on success)
"""
import base64
import hashlib
import json
import os
import struct
import sys

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hkdf(ikm: bytes, salt, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def contacts_key(my_dh_private: bytes, their_dh_public: bytes, my_feed: str, their_feed: str) -> bytes:
    """Spec 4.3: HKDF(X25519, salt "ProximityApp_ContactsKey_v1", info = sorted ASCII feed ids)."""
    shared = X25519PrivateKey.from_private_bytes(my_dh_private).exchange(X25519PublicKey.from_public_bytes(their_dh_public))
    low, high = sorted([my_feed.encode("ascii"), their_feed.encode("ascii")])
    return hkdf(shared, b"ProximityApp_ContactsKey_v1", low + high, 32)


def open_contacts(content: bytes, key: bytes, feed_id: str, sequence: int) -> bytes:
    """The v1 recipient map: version | salt 16 | count u16 | count x (slot_id 8 | wrapped 32) | body."""
    if len(content) < 19 or content[0] != 0x01:
        raise ValueError("not a v1 recipient map")
    salt = content[1:17]
    (count,) = struct.unpack(">H", content[17:19])
    if not 1 <= count <= 1024 or len(content) < 19 + 40 * count + 16:
        raise ValueError("truncated or oversized map")
    slots = [content[19 + 40 * i: 19 + 40 * (i + 1)] for i in range(count)]
    if any(slots[i][:8] >= slots[i + 1][:8] for i in range(count - 1)):
        raise ValueError("slot ids not ascending")
    header, body = content[: 19 + 40 * count], content[19 + 40 * count:]
    info = b"Kith_ContactsSlot_v1" + feed_id.encode("ascii") + struct.pack(">I", sequence)
    okm = hkdf(key, salt, info, 40)
    slot_id, pad = okm[:8], okm[8:]
    match = [s for s in slots if s[:8] == slot_id]
    if not match:
        raise LookupError("not a recipient")
    message_key = bytes(a ^ b for a, b in zip(match[0][8:], pad))
    nonce = hashlib.sha256(struct.pack(">Q", sequence) + feed_id.encode("ascii")).digest()[:12]
    return ChaCha20Poly1305(message_key).decrypt(nonce, body, header)


def check_card(text: str, expected_feed: str) -> str:
    """Card v1: version | feed_id 32 | identity 32 | dh 32 | pq 1184 | spk id u32 | spk 32 | spk sig 64
    | created u64 | name_len u8 | name | ext_count u8 | (type u16 | len u16 | value)* | signature 64."""
    card = unb64u(text)
    assert card[0] == 1, "card version"
    feed, identity = card[1:33], card[33:65]
    offset = 1 + 32 * 3 + 1184
    spk_id = card[offset: offset + 4]
    spk = card[offset + 4: offset + 36]
    spk_sig = card[offset + 36: offset + 100]
    offset += 100 + 8
    name_len = card[offset]
    name = card[offset + 1: offset + 1 + name_len].decode("utf-8")
    offset += 1 + name_len
    count = card[offset]
    offset += 1
    for _ in range(count):
        _, length = struct.unpack(">HH", card[offset: offset + 4])
        offset += 4 + length
    assert len(card) == offset + 64, "card length"
    key = Ed25519PublicKey.from_public_bytes(identity)
    key.verify(card[offset:], b"Kith_ContactCard_v1" + card[:offset])
    key.verify(spk_sig, b"Kith_SPK_v1" + spk_id + spk)
    assert b64u(hashlib.sha256(identity).digest()) == b64u(feed) == expected_feed, "feed id"
    return name


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "TestVectors", "contacts", "contacts-v1.json")
    with open(path, "rb") as handle:
        data = json.load(handle)
    author, recipient, message = data["author"], data["recipient"], data["message"]

    # The recipient's X25519 key comes from its seed exactly as docs/FEED-FORMAT.md says.
    dh_private = hkdf(bytes.fromhex(recipient["seed_hex"]), None, b"dh_key", 32)
    assert dh_private.hex() == recipient["dh_private_hex"], "recipient dh key derivation"
    public = X25519PrivateKey.from_private_bytes(dh_private).public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert b64u(public) == recipient["dh_key"], "recipient dh public key"

    key = contacts_key(dh_private, unb64u(author["dh_key"]), recipient["feed_id"], author["feed_id"])
    assert key.hex() == data["contacts_key"]["key_hex"], "contacts key"
    content = unb64u(message["content_enc"])
    plaintext = open_contacts(content, key, author["feed_id"], message["sequence"])
    assert plaintext.decode("utf-8") == message["plaintext"], "plaintext"

    # The author reads its own post through its self slot (key derived from the journal key).
    self_key = hkdf(bytes.fromhex(author["journal_key_hex"]), None, b"Kith_ContactsSelfKey_v1", 32)
    assert open_contacts(content, self_key, author["feed_id"], message["sequence"]) == plaintext, "self slot"

    # Someone else holds no slot; a flipped body byte fails authentication.
    outsider = hkdf(b"\x99" * 32, None, b"dh_key", 32)
    try:
        open_contacts(content, contacts_key(outsider, unb64u(author["dh_key"]), "x" * 43, author["feed_id"]), author["feed_id"], message["sequence"])
        raise AssertionError("an outsider decrypted the post")
    except LookupError:
        pass
    tampered = content[:-1] + bytes([content[-1] ^ 1])
    try:
        open_contacts(tampered, key, author["feed_id"], message["sequence"])
        raise AssertionError("tampered content opened")
    except InvalidTag:
        pass

    name = check_card(data["card"]["text"], author["feed_id"])
    assert name == data["card"]["display_name"], "card name"
    try:
        bad = bytearray(unb64u(data["card"]["text"]))
        bad[1391] ^= 1
        check_card(b64u(bytes(bad)), author["feed_id"])
        raise AssertionError("a tampered card verified")
    except InvalidSignature:
        pass

    blob = bytes.fromhex(data["blob"]["blob_hex"])
    assert b64u(hashlib.sha256(blob).digest()) == data["blob"]["content_hash"], "blob hash"
    assert blob[0] == 1
    opened = ChaCha20Poly1305(unb64u(data["blob"]["key"])).decrypt(b"\x00" * 12, blob[1:], b"Kith_Blob_v1")
    assert opened.decode("ascii") == data["blob"]["plaintext_ascii"], "blob plaintext"

    print("OK contacts post decrypted as recipient (%d slots, %d bytes), card and blob verified" % (message["slot_count"], len(content)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
