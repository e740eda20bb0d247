"""Independent check of TestVectors/groups/groups-v1.json (docs/GROUPS.md sections 1-3).

Rebuilds every value from the fixed inputs with Python's `cryptography` (Ed25519 keys from seeds),
hashlib and json, without Kith's code: feed ids, the BasicCredential, the 0xFF10 policy and 0xFF11
identity-key extensions (TLS variable-length opaque, RFC 9420 section 2.1.2), the refusals a reader
must make, the group audience and the contents a receiver stores.
"""
import base64
import hashlib
import json
import sys

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public_key(seed_hex):
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed_hex)).public_key()
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def opaque(data):
    """TLS opaque<V> with MLS's variable-length integer prefix."""
    n = len(data)
    if n < 64:
        prefix = bytes([n])
    elif n < 16384:
        prefix = bytes([0x40 | (n >> 8), n & 0xFF])
    else:
        prefix = (0x80000000 | n).to_bytes(4, "big")
    return prefix + data


def read_opaque(data):
    """(value, rest) or None for a malformed prefix."""
    if not data:
        return None
    first = data[0] >> 6
    if first == 0:
        n, head = data[0] & 0x3F, 1
    elif first == 1 and len(data) >= 2:
        n, head = ((data[0] & 0x3F) << 8) | data[1], 2
    else:
        return None
    if len(data) < head + n:
        return None
    return data[head:head + n], data[head + n:]


def names_feed(extension_data, feed_raw):
    """The identity-key extension names this feed: one 32-byte key whose SHA-256 is the feed id."""
    parsed = read_opaque(extension_data)
    if parsed is None:
        return False
    key, rest = parsed
    return not rest and len(key) == 32 and hashlib.sha256(key).digest() == feed_raw


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main(path):
    v = json.load(open(path, encoding="utf-8"))
    people = v["people"]
    member_key = public_key(people["member_seed_hex"])
    committer_key = public_key(people["committer_seed_hex"])
    member_raw = hashlib.sha256(member_key).digest()
    committer_raw = hashlib.sha256(committer_key).digest()
    checks = [
        ("member identity key", member_key.hex(), people["member_identity_key_hex"]),
        ("member feed id", b64u(member_raw), people["member_feed_id"]),
        ("committer feed id", b64u(committer_raw), people["committer_feed_id"]),
        ("credential", (b"\x00\x01" + opaque(member_raw)).hex(), v["credential"]["credential_tls_hex"]),
        ("policy type", 0xFF10, v["policy"]["extension_type"]),
        ("policy data", (b"\x01" + opaque(committer_raw)).hex(), v["policy"]["extension_data_hex"]),
        ("identity type", 0xFF11, v["identity_key_extension"]["extension_type"]),
        ("identity data", opaque(member_key).hex(), v["identity_key_extension"]["extension_data_hex"]),
    ]
    group_id = bytes.fromhex(v["group_id_hex"])
    message = bytes.fromhex(v["mls_message_hex"])
    contents = v["contents"]
    checks.append(("audience", "group:" + b64u(group_id), contents["audience"]))
    event = {"event": "add_member", "group_id": b64u(group_id), "mls_message": b64u(message), "type": "group_event"}
    checks.append(("group_event content", canonical(event), contents["group_event_plaintext"]))
    offer = {"key_package": b64u(message), "type": "mls_key_package"}
    checks.append(("mls_key_package content", canonical(offer), contents["mls_key_package_plaintext"]))
    # A restored committer's warrant (docs/CONTINUITY.md section 8): rebuilt and signed here with the committer's seed
    # (Ed25519 signatures are deterministic), then the version 2 policy and the request content that carry it.
    r = v["committer_readmission"]
    committer_private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(people["committer_seed_hex"]))
    fields = (opaque(group_id) + opaque(committer_raw) + opaque(member_raw) + opaque(bytes.fromhex(r["key_package_ref_hex"]))
              + r["issued_at"].to_bytes(8, "big"))
    signature = committer_private.sign(r["signed_label"].encode() + fields)
    warrant = fields + opaque(signature)
    checks.append(("committer readmission label", "Kith committer readmission v1", r["signed_label"]))
    checks.append(("committer readmission warrant", warrant.hex(), r["warrant_hex"]))
    checks.append(("policy v2", (b"\x02" + opaque(committer_raw) + opaque(warrant)).hex(), r["policy_v2_extension_data_hex"]))
    request = {"committer_readmission": b64u(warrant), "key_package": b64u(message), "readmit": b64u(group_id), "type": "mls_key_package"}
    checks.append(("readmission request content", canonical(request), r["request_plaintext"]))
    failures = [name for name, mine, theirs in checks if mine != theirs]
    committer_public = committer_private.public_key()
    for index, bad in enumerate(r["invalid_warrant_hex"]):
        data = bytes.fromhex(bad)
        # The signature is the last 64 bytes (after its one-byte length); everything before it is signed.
        body, sig = data[:-65], data[-64:]
        try:
            committer_public.verify(sig, r["signed_label"].encode() + body)
            failures.append(f"tampered warrant {index} verified")
        except Exception:
            pass
    ext = v["identity_key_extension"]
    if not names_feed(bytes.fromhex(ext["extension_data_hex"]), member_raw):
        failures.append("valid identity extension refused")
    for index, bad in enumerate(ext["invalid_extension_data_hex"]):
        if names_feed(bytes.fromhex(bad), member_raw):
            failures.append(f"invalid identity extension {index} accepted")
    if failures:
        print("FAILED: " + ", ".join(failures))
        return 1
    print(f"OK: {len(checks)} group values rebuilt independently, {len(ext['invalid_extension_data_hex'])} invalid leaf extensions and "
          f"{len(r['invalid_warrant_hex'])} tampered committer warrants refused")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "TestVectors/groups/groups-v1.json"))
