#!/usr/bin/env python3
"""Writes a feed signed by Python: make_feed.py SEED_HEX OUT_FILE [COUNT]

Prints the identity key (base64url). Messages are `post`s to the self audience (encrypted under
the journal key) including non-ASCII text, plus one `contacts`-audience envelope with opaque
content, so `kith feed verify` and `kith feed import` can be checked against an independent author.
"""
import sys

import kith_feed as kf


def main() -> int:
    seed = bytes.fromhex(sys.argv[1])
    out = sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    keys = kf.Keys(seed)
    lines, previous = [], None
    for sequence in range(count):
        body = "Python post %d — grüße 🐍" % sequence
        content = kf.canonical({"type": "post", "body": body, "attachments": [], "mentions": [], "reply_to": None})
        if sequence == count - 1:
            audience, sealed = "contacts", b"\x00opaque-to-this-test"
        else:
            audience, sealed = "self", kf.seal_self(keys.journal, sequence, keys.feed_id, content)
        line = kf.sign_envelope(keys, sequence, previous, 1763800000 + sequence, "post", audience, sealed)
        previous = kf.message_id(line)
        lines.append(line)
    with open(out, "wb") as handle:
        handle.write(b"\n".join(lines) + b"\n")
    print(keys.identity_key)
    return 0


if __name__ == "__main__":
    sys.exit(main())
