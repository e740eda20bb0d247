#!/usr/bin/env python3
"""Checks TestVectors/feed/feed-v1.json with Python `cryptography` alone: key derivation from the
seed, canonical bytes, signatures, message ids, self-audience decryption, stubs, invalid cases."""
import json
import os
import sys

import kith_feed as kf


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "TestVectors", "feed", "feed-v1.json")
    with open(path, "rb") as handle:
        data = json.load(handle)
    failures = []
    keys = kf.Keys(bytes.fromhex(data["keys"]["seed_hex"]))
    for name, actual in [("identity_key", keys.identity_key), ("dh_key", keys.dh_key), ("feed_id", keys.feed_id), ("journal_key_hex", keys.journal.hex())]:
        if data["keys"][name] != actual:
            failures.append("key %s differs" % name)
    lines = []
    for index, entry in enumerate(data["chain"]):
        line = entry["envelope"].encode("utf-8")
        lines.append(line)
        if kf.message_id(line) != entry["message_id"]:
            failures.append("message %d: id" % index)
        value = kf.parse_canonical(line)
        unsigned = {k: v for k, v in value.items() if k != "signature"}
        if kf.canonical(unsigned).decode("utf-8") != entry["signing_input"]:
            failures.append("message %d: signing input" % index)
        if kf.self_nonce(index, keys.feed_id).hex() != entry["nonce_hex"]:
            failures.append("message %d: nonce" % index)
        plain = kf.open_self(keys.journal, index, keys.feed_id, kf.unb64u(value["content_enc"]))
        if plain.decode("utf-8") != entry["content_plaintext"]:
            failures.append("message %d: plaintext" % index)
        if kf.sign_stub(keys, line).decode("utf-8") != entry["stub"]:
            failures.append("message %d: signed stub" % index)
        resigned = kf.sign_envelope(keys, value["sequence"], value["previous"], value["timestamp"], value["type"], value["audience"], kf.unb64u(value["content_enc"]))
        if resigned != line:
            failures.append("message %d: re-signing differs (Ed25519 is deterministic)" % index)
    accepted, rejections = kf.verify_lines(keys.identity_key_raw, lines)
    if rejections or accepted != len(lines):
        failures.append("chain does not verify: %r" % rejections)
    stubs = [entry["stub"].encode("utf-8") for entry in data["chain"]]
    mixed = [stubs[i] if i % 2 else lines[i] for i in range(len(lines))]
    for candidate in (stubs, mixed):
        accepted, rejections = kf.verify_lines(keys.identity_key_raw, candidate)
        if rejections or accepted != len(lines):
            failures.append("stub chain does not verify: %r" % rejections)
    for case in data["invalid"]:
        _, rejections = kf.verify_lines(keys.identity_key_raw, [l.encode("utf-8") for l in case["lines"]])
        if not rejections or rejections[0][2] != case["code"] or rejections[0][0] != case["first_rejected_line"]:
            failures.append("invalid case %r: got %r" % (case["description"], rejections[:1]))
    for failure in failures:
        print("MISMATCH: " + failure)
    if failures:
        return 1
    print("OK: %d chain messages and %d invalid cases match" % (len(data["chain"]), len(data["invalid"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
