"""The scenarios: each kills one kind of `kith` command several times on fresh copies of the template homes,
then recovers (runs what was interrupted again, syncs) and checks what must hold.

A scenario is `kill(rnd, n)` (one killed sequence; returns its KillReport) and `finish(rnd)` (recovery and the
end-of-round checks). After every kill the runner checks SQLite integrity of every home.
"""
from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass, field

from checks import Broken, integrity, own_feed_verifies, present_once
from homes import Homes
from kith_driver import KillReport, wal_mtime


@dataclass
class Round:
    """One round: its homes, random source, speed estimate and what was acknowledged so far."""

    homes: Homes
    rng: object
    tag: str
    span: float
    acked_ids: dict = field(default_factory=dict)      # who -> [message ids]
    acked_bodies: dict = field(default_factory=dict)   # who -> [bodies]
    notes: list = field(default_factory=list)
    racy_bugs: list = field(default_factory=list)  # known nondeterministic bugs met (fail in long mode only)

    def on_write(self) -> bool:
        return self.rng.random() < 0.5

    def kill(self, who: str, commands: list[list[str]], watch=None):
        report = self.homes.kith.killed_sequence(self.homes.home(who), commands, self.rng,
                                                 self.span * len(commands), self.on_write(),
                                                 [self.homes.home(w) for w in (watch or [who])])
        for outcome in report.acknowledged():
            printed = outcome.json()
            if isinstance(printed, dict) and printed.get("message_id"):
                self.acked_ids.setdefault(who, []).append(printed["message_id"])
                self.acked_bodies.setdefault(who, []).append(outcome.args[-1])
        return report

    def json(self, who: str, *args: str):
        return self.homes.kith.json(self.homes.home(who), *args)

    def run(self, who: str, *args: str, **kw):
        return self.homes.kith.run(self.homes.home(who), *args, **kw)


def _texts(rnd: Round, kind: str, n: int, count: int) -> list[str]:
    return [f"{kind} {rnd.tag} kill{n} #{i}" for i in range(count)]


def _own_acked_present(rnd: Round, who: str, *selector: str) -> None:
    entries = rnd.homes.log(who, *selector)
    present_once(entries, [i for i in rnd.acked_ids.get(who, []) if i], rnd.acked_bodies.get(who, []),
                 f"{who}'s own log")


class Post:
    """Sequential `kith post` (self and contacts audience) killed mid-sequence; everything acknowledged is in the
    feed once, the feed verifies, the next post works and Bob reads the acknowledged contacts posts."""

    name = "post"

    def kill(self, rnd: Round, n: int):
        cmds = [["post", "--json", "--audience", rnd.rng.choice(["self", "contacts"]), t]
                for t in _texts(rnd, "post", n, 3)]
        return rnd.kill("a", cmds)

    def finish(self, rnd: Round) -> None:
        _own_acked_present(rnd, "a", "--feed", rnd.homes.meta["a.feed"])
        rnd.run("a", "post", "--audience", "contacts", f"post {rnd.tag} after")
        own_feed_verifies(rnd.homes, "a")
        rnd.homes.deliver("a", "b")
        seen = rnd.homes.log("b", "--feed", rnd.homes.meta["a.feed"])
        wanted = rnd.acked_ids.get("a", [])
        contacts = {e["message_id"] for e in rnd.homes.log("a", "--feed", rnd.homes.meta["a.feed"])
                    if e.get("audience") == "contacts"}
        present_once(seen, [i for i in wanted if i in contacts], [f"post {rnd.tag} after"], "b reading a's posts")


class DirectMessage:
    """`kith dm` killed (the first one starts the Double Ratchet session on one of Bob's one-time prekeys); then
    both directions continue and every message decrypts exactly once on the receiver, also after a re-import."""

    name = "dm"

    def kill(self, rnd: Round, n: int):
        return rnd.kill("a", [["dm", "--json", "Bob", t] for t in _texts(rnd, "dm", n, 2)])

    def finish(self, rnd: Round) -> None:
        _own_acked_present(rnd, "a", "--with", "Bob")
        after = f"dm {rnd.tag} after"
        rnd.run("a", "dm", "Bob", after)
        own_feed_verifies(rnd.homes, "a")
        rnd.homes.deliver("a", "b")
        rnd.homes.deliver("a", "b")  # a second import must not decrypt anything twice
        present_once(rnd.homes.log("b", "--with", "Alice"), [], rnd.acked_bodies.get("a", []) + [after],
                     "Bob reading Alice's direct messages")
        reply = f"dm {rnd.tag} reply"
        rnd.run("b", "dm", "Alice", reply)
        rnd.homes.deliver("b", "a")
        present_once(rnd.homes.log("a", "--with", "Bob"), [], [reply], "Alice reading Bob's reply")
        rnd.run("a", "dm", "Bob", after + " 2")
        rnd.homes.deliver("a", "b")
        present_once(rnd.homes.log("b", "--with", "Alice"), [], [after + " 2"], "Bob reading after the reply")


class GroupSend:
    """`kith group send` (MLS) killed; then both members send and each reads every acknowledged message once."""

    name = "group-send"

    def kill(self, rnd: Round, n: int):
        return rnd.kill("a", [["group", "send", "--json", "climb", t] for t in _texts(rnd, "group", n, 2)])

    def finish(self, rnd: Round) -> None:
        group = rnd.homes.meta["group"]
        _own_acked_present(rnd, "a", "--group", group)
        _group_both_ways(rnd, rnd.acked_bodies.get("a", []))


def _group_both_ways(rnd: Round, earlier: list[str]) -> None:
    group = rnd.homes.meta["group"]
    from_a, from_b = f"group {rnd.tag} after a", f"group {rnd.tag} after b"
    rnd.run("a", "group", "send", "climb", from_a)
    own_feed_verifies(rnd.homes, "a")
    rnd.homes.deliver("a", "b")
    rnd.run("b", "group", "send", group[:8], from_b)
    own_feed_verifies(rnd.homes, "b")
    rnd.homes.deliver("b", "a")
    rnd.homes.deliver("a", "b")
    for who in ("a", "b"):
        present_once(rnd.homes.log(who, "--group", group), [], earlier + [from_a, from_b], f"{who} reading the group")


class GroupReceive:
    """Bob's `kith feed import` of Alice's group messages (MLS decryption, epoch state) killed; the import run
    again yields each message once, and the group keeps working both ways."""

    name = "group-receive"

    def kill(self, rnd: Round, n: int):
        texts = _texts(rnd, "group-in", n, 2)
        for t in texts:
            rnd.run("a", "group", "send", "climb", t)
        rnd.acked_bodies.setdefault("sent", []).extend(texts)
        path = rnd.homes.export("a")
        return rnd.kill("b", [["feed", "import", path]])

    def finish(self, rnd: Round) -> None:
        rnd.homes.deliver("a", "b")
        _group_both_ways(rnd, rnd.acked_bodies.get("sent", []))


class SyncPair:
    """A TCP `kith sync listen` / `connect` pair carrying posts, direct and group messages both ways, with one
    side (or both) killed at random; a clean sync afterwards delivers everything once to both sides."""

    name = "sync"

    def kill(self, rnd: Round, n: int):
        sent = {"a": [], "b": []}
        for who, peer in (("a", "Bob"), ("b", "Alice")):
            kinds = [("post", ["post", "--audience", "contacts"]), ("dm", ["dm", peer]),
                     ("group", ["group", "send", rnd.homes.meta["group"][:8]])]
            for kind, args in (kinds if n == 0 else [kinds[n % 3]]):  # all kinds first, then one per kill
                text = f"sync-{kind} {rnd.tag} kill{n} from {who}"
                rnd.run(who, *args, text)
                sent[who].append(text)
        for who in ("a", "b"):
            rnd.acked_bodies.setdefault(who, []).extend(sent[who])
        return _killed_sync(rnd)

    def finish(self, rnd: Round) -> None:
        rnd.homes.sync_pair("b", "a")
        rnd.homes.sync_pair("b", "a")
        group = rnd.homes.meta["group"]
        for reader, author, with_name in (("b", "a", "Alice"), ("a", "b", "Bob")):
            texts = rnd.acked_bodies.get(author, [])
            logs = rnd.homes.log(reader, "--feed", rnd.homes.meta[f"{author}.feed"])
            present_once(logs, [], [t for t in texts if t.startswith("sync-post")], f"{reader} reading posts")
            present_once(rnd.homes.log(reader, "--with", with_name), [], [t for t in texts if t.startswith("sync-dm")],
                         f"{reader} reading direct messages")
            present_once(rnd.homes.log(reader, "--group", group), [], [t for t in texts if t.startswith("sync-group")],
                         f"{reader} reading the group")
        for who in ("a", "b"):
            own_feed_verifies(rnd.homes, who)
        _group_both_ways(rnd, [])


def _killed_sync(rnd: Round):
    """One TCP sync session (Bob listens, Alice connects) with a SIGKILL on the listener, the connector or both,
    after a random delay or a few ms after the victim's WAL is first written; the survivor runs on to its end."""
    homes, kith = rnd.homes, rnd.homes.kith
    victim = rnd.rng.choice(["listener", "connector", "both"])
    on_write = rnd.on_write()
    listener, port = homes.start_listener("b")
    connector = kith.spawn(homes.home("a"), "sync", "connect", f"127.0.0.1:{port}", "--contact", "Bob")
    procs = {"listener": [listener], "connector": [connector], "both": [listener, connector]}[victim]
    wals = [os.path.join(homes.home(w), "kith.sqlite-wal") for w in {"listener": "b", "connector": "a"}.get(victim, "ab")]
    report = KillReport()
    try:
        kill_at = None if on_write else time.monotonic() + rnd.rng.uniform(0, rnd.span * 2)
        delay = rnd.rng.uniform(0, 0.025)
        baseline = {w: wal_mtime(w) for w in wals}
        while any(p.poll() is None for p in procs):
            now = time.monotonic()
            if kill_at is None and any(wal_mtime(w) != baseline[w] for w in wals):
                kill_at = now + delay
            if kill_at is not None and now >= kill_at:
                for p in procs:
                    kith.stop(p)
                report.killed = True
                report.kill_note = f"sync {victim} killed " + (f"{delay * 1000:.1f} ms after its first WAL write"
                                                               if on_write else "after a random delay")
                break
            time.sleep(0.001 if on_write else 0.003)
        for p, side in ((connector, "connector"), (listener, "listener")):  # the survivor ends on its own
            try:
                p.wait(timeout=8)
            except subprocess.TimeoutExpired:
                # A listener whose connector died before connecting keeps waiting for a session: stop it.
                report.kill_note += f"; surviving {side} still running after 8 s, stopped"
    finally:
        kith.stop(listener)
        kith.stop(connector)
    return report


class CircleSend:
    """`kith circle send` killed: a one-time key is never used for two messages (the acknowledged sends report
    distinct, decreasing keys_left; Alice's feed holds no more circle messages than keys spent); after a sync Bob
    opens every acknowledged message exactly once, and both directions continue."""

    name = "circle-send"

    def kill(self, rnd: Round, n: int):
        report = rnd.kill("a", [["circle", "send", "--json", "Bob", t] for t in _texts(rnd, "circle", n, 2)])
        rnd.acked_bodies.setdefault("keys_left", []).extend(o.json()["keys_left"] for o in report.acknowledged())
        return report

    def finish(self, rnd: Round) -> None:
        left = rnd.acked_bodies.get("keys_left", [])
        if len(set(left)) != len(left) or left != sorted(left, reverse=True):
            raise Broken(f"circle send reported keys_left {left}: a one-time key was used twice")
        status = rnd.json("a", "circle", "status")[0]
        spent = status["keys_to_send_capacity"] - status["keys_to_send"]
        sent = [e for e in rnd.homes.log("a", "--feed", rnd.homes.meta["a.feed"])
                if str(e.get("audience", "")).startswith("otk:")]
        if len(sent) > spent:
            raise Broken(f"Alice's feed holds {len(sent)} one-time messages but only {spent} keys were spent")
        if len(sent) < spent:
            rnd.notes.append(f"{spent - len(sent)} one-time key(s) spent without a stored message (wasted, not reused)")
        own_feed_verifies(rnd.homes, "a")
        _circle_both_ways(rnd, rnd.acked_bodies.get("a", []), len(sent))


def _circle_both_ways(rnd: Round, earlier: list[str], sent_before: int) -> None:
    after, reply = f"circle {rnd.tag} after", f"circle {rnd.tag} reply"
    rnd.run("a", "circle", "send", "Bob", after)
    before_b = rnd.json("b", "circle", "status")[0]["keys_to_receive"]
    rnd.homes.sync_pair("b", "a")
    present_once(rnd.homes.log("b", "--with", "Alice"), [], earlier + [after], "Bob opening one-time messages")
    opened = before_b - rnd.json("b", "circle", "status")[0]["keys_to_receive"]
    if opened < 1:
        raise Broken(f"Bob opened one-time messages without deleting their keys (keys_to_receive fell by {opened})")
    rnd.run("b", "circle", "send", "Alice", reply)
    rnd.homes.sync_pair("b", "a")
    rnd.homes.sync_pair("b", "a")
    present_once(rnd.homes.log("a", "--with", "Bob"), [], [reply], "Alice opening Bob's one-time message")
    present_once(rnd.homes.log("b", "--with", "Alice"), [], earlier + [after], "Bob after a second sync")


class CircleOpen:
    """Bob opens Alice's one-time messages during a TCP sync that is killed (either side); a clean sync afterwards
    opens each exactly once and Bob's receive pool shrinks by exactly the number of messages opened."""

    name = "circle-open"

    def kill(self, rnd: Round, n: int):
        if "start" not in rnd.acked_bodies:
            rnd.acked_bodies["start"] = [rnd.json("b", "circle", "status")[0]["keys_to_receive"]]
        for t in _texts(rnd, "circle-in", n, 2):
            rnd.run("a", "circle", "send", "Bob", t)
            rnd.acked_bodies.setdefault("a", []).append(t)
        return _killed_sync(rnd)

    def finish(self, rnd: Round) -> None:
        rnd.homes.sync_pair("b", "a")
        texts = rnd.acked_bodies.get("a", [])
        present_once(rnd.homes.log("b", "--with", "Alice"), [], texts, "Bob opening one-time messages")
        opened = rnd.acked_bodies["start"][0] - rnd.json("b", "circle", "status")[0]["keys_to_receive"]
        if opened != len(texts):
            raise Broken(f"Bob opened {len(texts)} one-time messages but his receive pool shrank by {opened}")
        _circle_both_ways(rnd, texts, len(texts))


class InviteJoin:
    """Carol's `kith invite accept` and Alice's processing of the join request (an MLS commit adding Carol, during
    `feed import`) killed; after syncs Carol is a member exactly once and the group works for all three."""

    name = "invite-join"

    def kill(self, rnd: Round, n: int):
        if n % 2 == 0:
            return rnd.kill("c", [["invite", "accept", rnd.homes.meta["invite"]]])
        if not rnd.acked_bodies.get("accepted"):
            rnd.run("c", "invite", "accept", rnd.homes.meta["invite"])
            rnd.acked_bodies["accepted"] = [True]
        path = rnd.homes.export("c")
        return rnd.kill("a", [["feed", "import", path]])

    def finish(self, rnd: Round) -> None:
        if not rnd.acked_bodies.get("accepted"):
            rnd.run("c", "invite", "accept", rnd.homes.meta["invite"])
        group = rnd.homes.meta["group"]
        for _ in range(2):
            rnd.homes.sync_all()
        shown = rnd.json("a", "group", "show", group)
        feeds = [m.get("feed_id") if isinstance(m, dict) else m for m in shown.get("members", [])]
        if len(feeds) != 3 or len(set(map(str, feeds))) != 3:
            raise Broken(f"after the invite, Alice's group members are {shown.get('members')} (want 3 distinct)")
        if rnd.json("c", "group", "show", group).get("status") != "active":
            raise Broken("Carol is not an active member after accepting the invite")
        texts = {w: f"invite {rnd.tag} from {w}" for w in ("a", "b", "c")}
        for who in ("a", "b", "c"):
            rnd.run(who, "group", "send", group[:8], texts[who])
            rnd.homes.sync_all()
        rnd.homes.sync_all()
        for who in ("a", "b", "c"):
            own_feed_verifies(rnd.homes, who)
        for who in ("a", "c"):
            present_once(rnd.homes.log(who, "--group", group), [], list(texts.values()), f"{who} reading the group")


class RotateKeys:
    """`kith rotate-keys` killed (new keys, a key_rotation entry, contacts keys re-derived); the identity still
    opens, the next rotation, post and dm work, and Bob verifies the rotation and reads both."""

    name = "rotate-keys"

    def kill(self, rnd: Round, n: int):
        return rnd.kill("a", [["rotate-keys", "--json"]])

    def after_kill(self, rnd: Round) -> None:
        try:
            _keys_match_feed(rnd)
        except Broken as broken:  # nondeterministic (needs a kill in one window): recorded, the round goes on
            rnd.racy_bugs.append(f"{broken} [{PUBLIC_KEYS_BUG}]")

    def finish(self, rnd: Round) -> None:
        rnd.homes.deliver("a", "b")
        if not _rotations_seen_by_bob(rnd):  # no killed rotation committed: one more must work
            rnd.run("a", "rotate-keys")
        post, dm = f"rotate {rnd.tag} post", f"rotate {rnd.tag} dm"
        rnd.run("a", "post", "--audience", "contacts", post)
        rnd.run("a", "dm", "Bob", dm)
        own_feed_verifies(rnd.homes, "a")
        rnd.homes.deliver("a", "b")
        present_once(rnd.homes.log("b", "--feed", rnd.homes.meta["a.feed"]), [], [post], "Bob reading the post")
        present_once(rnd.homes.log("b", "--with", "Alice"), [], [dm], "Bob reading the dm")
        contacts = rnd.json("b", "contacts")
        feed = rnd.homes.meta["a.feed"]
        rotations = _rotations_seen_by_bob(rnd, contacts)
        alice = [c for c in contacts.get("contacts", []) if c.get("feed_id") == feed]
        if not rotations or not all(r.get("verified") for r in rotations):
            raise Broken(f"Bob does not verify Alice's rotations: {rotations}")
        current = _announced_key(rnd)
        if not alice or alice[0].get("identity_key") != current:
            raise Broken("Bob's record of Alice does not hold her current identity key after the rotations")
        reply = f"rotate {rnd.tag} reply"
        rnd.run("b", "dm", "Alice", reply)
        rnd.homes.deliver("b", "a")
        present_once(rnd.homes.log("a", "--with", "Bob"), [], [reply], f"Alice reading Bob after {len(rotations)} rotations")


# The nondeterministic bug the rotate-keys scenario finds (a kill between two steps of a rotation; README.md).
PUBLIC_KEYS_BUG = ("kith bug: a kill after `rotate-keys` moved keys-pending.sealed over keys.sealed but before "
                   "finishRotation rewrote public.json leaves `kith id` showing the old identity key for good")


def _announced_key(rnd: Round) -> str:
    own = rnd.homes.log("a", "--feed", rnd.homes.meta["a.feed"])
    rotations = sorted((e for e in own if e.get("type") == "key_rotation"), key=lambda e: e["sequence"])
    return rotations[-1]["content"]["new_identity_key"] if rotations else rnd.homes.meta["a.key"]


def _keys_match_feed(rnd: Round) -> None:
    """After a command opened the home (finishing or discarding an interrupted rotation), `kith id` (public.json)
    shows the identity key of the last key_rotation in the own feed, or the first key when there is none."""
    announced = _announced_key(rnd)
    shown = rnd.json("a", "id")["identity_key"]
    if shown != announced:
        raise Broken(f"after the kill, `kith id` (public.json) shows identity key {shown[:12]}… but the feed's last "
                     f"key_rotation announced {announced[:12]}…")


def _rotations_seen_by_bob(rnd: Round, contacts: dict | None = None) -> list[dict]:
    contacts = contacts if contacts is not None else rnd.json("b", "contacts")
    return [r for r in contacts.get("key_rotations", []) if r.get("feed_id") == rnd.homes.meta["a.feed"]]


# A deterministic bug the rotate-keys scenario ran into, fixed (README.md, "Bugs found and fixed"); replayed without
# kills by every run as a regression case.
ROTATION_CASE = ("Alice and Bob have a direct session (the template's Welcome), Alice runs `kith rotate-keys` twice, "
                 "Bob's next direct message to Alice is readable by Alice, and her answer by Bob")


def rotated_twice_case(homes: Homes) -> str | None:
    """Replays the two-rotations case without any kill on a copy of the template; the failure, or None when it holds."""
    for _ in range(2):
        homes.kith.run(homes.home("a"), "rotate-keys")
    homes.deliver("a", "b")
    homes.kith.run(homes.home("b"), "dm", "Alice", "reply after two rotations")
    homes.deliver("b", "a")
    homes.kith.run(homes.home("a"), "dm", "Bob", "answer after two rotations")
    homes.deliver("a", "b")
    try:
        present_once(homes.log("a", "--with", "Bob"), [], ["reply after two rotations"], "Alice reading Bob's reply")
        present_once(homes.log("b", "--with", "Alice"), [], ["answer after two rotations"], "Bob reading Alice's answer")
    except Broken as broken:
        return str(broken)
    return None


SCENARIOS = [Post(), DirectMessage(), GroupSend(), GroupReceive(), SyncPair(), CircleSend(), CircleOpen(),
             InviteJoin(), RotateKeys()]
