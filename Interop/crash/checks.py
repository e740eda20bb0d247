"""Checks after a kill: SQLite integrity, acknowledged messages present once, the own feed verifies."""
from __future__ import annotations

import collections
import contextlib
import glob
import os
import shutil
import sqlite3
import tempfile

from homes import Homes


class Broken(Exception):
    """A consistency property does not hold; the message says which, in which home."""


def integrity(homes: Homes, who_list=("a", "b", "c")) -> None:
    """`PRAGMA integrity_check` is "ok" on every SQLite file of each home, opened read-only as left by the kill."""
    for who in who_list:
        for path in _sqlite_files(homes.home(who)):
            result = _integrity_readonly(path)
            if result != "ok":
                raise Broken(f"{who}: integrity_check of {os.path.basename(path)}: {result}")


def _sqlite_files(home: str) -> list[str]:
    found = []
    for path in glob.glob(os.path.join(home, "**", "*"), recursive=True):
        if os.path.isfile(path) and not path.endswith(("-wal", "-shm", "-journal")):
            with open(path, "rb") as f:
                if f.read(16) == b"SQLite format 3\x00":
                    found.append(path)
    return found


def _integrity_readonly(path: str) -> str:
    """The integrity check on the file as left (read-only); if that open fails, on a copy of the database and its
    WAL (opening the copy replays the WAL as the next kith process would). Both answers are given when they differ."""
    try:
        first = _check(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        first = f"read-only open failed: {error}"
    if first == "ok":
        return first
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ("", "-wal"):
            if os.path.exists(path + suffix):
                shutil.copy(path + suffix, os.path.join(tmp, "db" + suffix))
        try:
            second = _check(os.path.join(tmp, "db"))
        except sqlite3.Error as error:
            second = f"open failed: {error}"
    if first.startswith("read-only open failed: unable to open") and second == "ok":
        return "ok"
    return f"read-only: {first}; copy with its WAL replayed: {second}"


def _check(target: str, uri: bool = False) -> str:
    # Closed at once: a connection left open in this process would share SQLite's per-file state (locks, the WAL
    # index mapping) with the next check of the same file after kith deleted and recreated the -shm file.
    with contextlib.closing(sqlite3.connect(target, uri=uri, timeout=30)) as db:
        rows = db.execute("PRAGMA integrity_check").fetchall()
    return "; ".join(str(r[0]) for r in rows)


def own_feed_verifies(homes: Homes, who: str) -> None:
    """The home's own feed, exported, verifies against its first identity key, read with the home's own key
    rotations (--as-contact): no half-written or wrongly signed entry."""
    path = homes.export(who)
    if os.path.getsize(path) == 0:
        return
    result = homes.kith.run(homes.home(who), "feed", "verify", "--as-contact", "--key",
                            homes.meta[f"{who}.key"], path, ok=None)
    if result.returncode != 0:
        raise Broken(f"{who}: feed verify of its own export failed: {(result.stdout + result.stderr)[-600:]}")


def bodies(entries: list[dict]) -> collections.Counter:
    return collections.Counter((e.get("content") or {}).get("body") for e in entries if not e.get("tombstoned"))


def ids(entries: list[dict]) -> collections.Counter:
    return collections.Counter(e.get("message_id") for e in entries)


def present_once(entries: list[dict], wanted_ids=(), wanted_bodies=(), where: str = "") -> None:
    """Every wanted message id and body is in `entries` exactly once; no message id appears twice."""
    by_id = ids(entries)
    twice = [i for i, n in by_id.items() if n > 1]
    if twice:
        raise Broken(f"{where}: message ids listed twice: {twice[:5]}")
    wanted_ids = list(wanted_ids)
    missing = [i for i in wanted_ids if by_id.get(i, 0) != 1]
    if missing:
        raise Broken(f"{where}: acknowledged message ids missing: {missing[:5]} (of {len(wanted_ids)})")
    by_body = bodies(entries)
    wrong = {b: by_body.get(b, 0) for b in wanted_bodies if by_body.get(b, 0) != 1}
    if wrong:
        raise Broken(f"{where}: bodies not present exactly once (body: count): {dict(list(wrong.items())[:5])}")
