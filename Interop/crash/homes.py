"""The prepared homes every round starts from (built once per run: creating identities costs scrypt), and syncing.

Template: Alice (a) is a contact of Bob (b) and Carol (c); Alice and Bob hold one-time prekeys of each other (no
direct session yet); Alice and Bob have active inner-circle pools; Alice's group "climb" has Bob as a member and a
multi-use invite (Carol has shared a KeyPackage and is not a member).
"""
from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import time

from kith_driver import Kith, KithError

WHO = ("a", "b", "c")
NAMES = {"a": "Alice", "b": "Bob", "c": "Carol"}
CONTACT_EDGES = (("a", "b"), ("a", "c"), ("b", "a"), ("c", "a"))


class Homes:
    """Three homes under `root` and what is known about them (feed ids, identity keys, group id, invite)."""

    def __init__(self, kith: Kith, root: str):
        self.kith = kith
        self.root = root
        self.meta: dict = {}

    def home(self, who: str) -> str:
        return os.path.join(self.root, who)

    def copy_to(self, root: str, kith: Kith | None = None) -> "Homes":
        """A copy of the homes (files only; no process may be running in them) driven by `kith`."""
        shutil.copytree(self.root, root)
        copy = Homes(kith or self.kith, root)
        copy.meta = dict(self.meta)
        return copy

    # Sync ------------------------------------------------------------------------------------------------------

    def export(self, who: str) -> str:
        path = os.path.join(self.root, f"{who}.jsonl")
        with open(path, "w") as out:
            out.write(self.kith.run(self.home(who), "feed", "export").stdout)
        return path

    def import_feed(self, to: str, path: str, ok=(0, 1)) -> None:
        if os.path.getsize(path) == 0:
            return
        self.kith.run(self.home(to), "feed", "import", path, ok=ok)

    def deliver(self, src: str, dst: str) -> None:
        """Feed export of `src`, import into `dst` (a file sync stand-in)."""
        self.import_feed(dst, self.export(src))

    def sync_all(self, homes=WHO) -> None:
        """Every home imports the feeds of the others: must work between contacts; between Bob and Carol (not
        contacts) only once a group made them follow each other (exit 2, not followed, is fine there)."""
        files = {w: self.export(w) for w in homes}
        for src in homes:
            for to in homes:
                if src != to:
                    self.import_feed(to, files[src], ok=(0, 1) if (src, to) in CONTACT_EDGES else (0, 1, 2))

    def start_listener(self, who: str):
        """`kith sync listen --once` on a free loopback port; returns (process, port)."""
        log = os.path.join(self.root, f"listen-{who}-{time.monotonic_ns()}.log")
        err = open(log, "w")
        try:
            proc = self.kith.spawn(self.home(who), "sync", "listen", "--port", "0", "--once",
                                   stdout=open(os.devnull, "w"), stderr=err)
        finally:
            err.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with open(log) as f:
                m = re.search(r"listening on 127\.0\.0\.1:(\d+)", f.read())
            if m:
                return proc, int(m.group(1))
            if proc.poll() is not None:
                break
            time.sleep(0.02)
        self.kith.stop(proc)
        with open(log) as f:
            raise KithError(f"sync listen in {who} did not start: {f.read()[-400:]}")

    def sync_pair(self, listener: str, connector: str) -> None:
        """One TCP sync session: `listener` listens, `connector` connects naming the listener as contact."""
        proc, port = self.start_listener(listener)
        try:
            self.kith.run(self.home(connector), "sync", "connect", f"127.0.0.1:{port}", "--contact",
                          NAMES[listener])
            proc.wait(timeout=120)
        finally:
            self.kith.stop(proc)

    # Reading ---------------------------------------------------------------------------------------------------

    def log(self, who: str, *selector: str) -> list[dict]:
        return self.kith.json(self.home(who), "log", "--limit", "100000", *selector)


def build_template(kith: Kith, root: str) -> Homes:
    """Creates the template homes (see the module comment)."""
    homes = Homes(kith, root)
    os.makedirs(root)
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(lambda w: kith.run(homes.home(w), "init"), WHO))
        cards = dict(zip(WHO, pool.map(lambda w: kith.run(homes.home(w), "card", "--name", NAMES[w]).stdout.strip(),
                                       WHO)))
    for x, y in (("a", "b"), ("b", "a"), ("a", "c"), ("c", "a")):
        kith.run(homes.home(x), "contact", "add", "--name", NAMES[y], cards[y])
    for who in WHO:
        ident = kith.json(homes.home(who), "id")
        homes.meta[f"{who}.feed"] = ident["feed_id"]
        homes.meta[f"{who}.key"] = ident["identity_key"]
    # One-time prekeys both ways between Alice and Bob, handed over in person.
    for giver, taker in (("b", "a"), ("a", "b")):
        handover = os.path.join(root, f"handover-{giver}.txt")
        with open(handover, "w") as f:
            f.write(kith.run(homes.home(giver), "prekeys", "export", NAMES[taker], "--count", "40").stdout)
        kith.run(homes.home(taker), "prekeys", "import", NAMES[giver], handover)
    # Inner circle between Alice and Bob.
    kith.run(homes.home("a"), "circle", "add", "Bob", "--size", "200")
    kith.run(homes.home("b"), "circle", "add", "Alice", "--size", "200")
    homes.sync_pair("b", "a")
    # Alice's group with Bob; Carol's KeyPackage is with Alice for the invite scenario.
    kith.run(homes.home("b"), "group", "keys", "share", "Alice")
    kith.run(homes.home("c"), "group", "keys", "share", "Alice")
    homes.sync_all()
    homes.meta["group_id"] = kith.json(homes.home("a"), "group", "create", "climb")["group_id"]
    # Commands name the group by its name: one id in 64 begins with "-", which a command line reads as options
    # (an id like "-h…" printed the help and exited 0, and this template build failed once that way).
    homes.meta["group"] = "climb"
    kith.run(homes.home("a"), "group", "add", "climb", "Bob")
    homes.meta["invite"] = kith.json(homes.home("a"), "invite", "create", "climb", "--no-qr")["url"]
    homes.sync_all()
    homes.sync_all()
    shown = kith.json(homes.home("b"), "group", "show", homes.meta["group"])
    if shown.get("status") != "active":
        raise KithError(f"template: Bob did not join the group: {shown}")
    for f in os.listdir(root):
        if not os.path.isdir(os.path.join(root, f)):
            os.remove(os.path.join(root, f))
    return homes
