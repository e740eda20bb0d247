#!/usr/bin/env python3
"""Independent verifier: verify_feed.py --key IDENTITY_KEY FILE [--journal-seed-hex SEED]

Exit 0 when every line is a valid entry of one chain from that key (prints OK), else 1 with
one line per rejected entry: line, sequence, reason code, message. With the author's seed it
also decrypts every self message (used on the author's own full export).
"""
import argparse
import json
import sys

import kith_feed as kf


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--key", required=True)
    parser.add_argument("--seed-hex")
    parser.add_argument("file")
    args = parser.parse_args()
    with open(args.file, "rb") as handle:
        lines = handle.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    accepted, rejections = kf.verify_lines(kf.unb64u(args.key, 32), lines)
    for line, sequence, code, message in rejections:
        print("line %d: sequence %s: %s: %s" % (line, sequence, code, message))
    decrypted = 0
    if args.seed_hex and not rejections:
        keys = kf.Keys(bytes.fromhex(args.seed_hex))
        for line in lines:
            value = json.loads(line)
            if value.get("audience") == "self" and "stub" not in value:
                plain = kf.open_self(keys.journal, value["sequence"], value["feed_id"], kf.unb64u(value["content_enc"]))
                content = json.loads(plain)
                assert content["type"] == value["type"], "content type differs from envelope type"
                decrypted += 1
    if rejections:
        print("INVALID: %d rejected, %d verified" % (len(rejections), accepted))
        return 1
    print("OK: %d verified, %d decrypted" % (accepted, decrypted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
