"""Runs real `kith` processes for the crash-consistency harness: plain runs, and runs killed with SIGKILL.

A killed run is started in its own process group (`start_new_session`) and the whole group gets SIGKILL, either
after a random delay or a random few milliseconds after the home's SQLite write-ahead log is first written (a kill
that lands inside a write). No process outlives the harness: every started group is killed in a `finally`.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import weakref
from dataclasses import dataclass, field

PASSPHRASE = "crash consistency passphrase"


class KithError(Exception):
    """A `kith` command that should have worked failed; the message says which and why."""


@dataclass
class Outcome:
    """One command of a killed sequence: its arguments, exit code (None: killed) and standard output."""

    args: list[str]
    returncode: int | None
    stdout: str
    stderr: str

    @property
    def acknowledged(self) -> bool:
        """Exited 0 and printed its JSON (the user saw it succeed)."""
        return self.returncode == 0 and self.json() is not None

    def json(self):
        for line in self.stdout.splitlines():
            line = line.strip()
            if line.startswith("{") or line.startswith("["):
                try:
                    return json.loads(line)
                except ValueError:
                    return None
        return None


@dataclass
class KillReport:
    """What a killed sequence did: the outcomes in order; `killed` is False when everything finished first."""

    outcomes: list[Outcome] = field(default_factory=list)
    killed: bool = False
    kill_note: str = ""

    def acknowledged(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.acknowledged]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KITH_HOME", "KITH_SERVER")}
    env["KITH_PASSPHRASE"] = PASSPHRASE
    env["KITH_LOG_LEVEL"] = "error"
    return env


class Kith:
    """The `kith` binary, run with a fixed passphrase; `live` holds process groups to kill on exit."""

    _instances: "weakref.WeakSet[Kith]" = weakref.WeakSet()

    def __init__(self, binary: str):
        self.binary = binary
        self.env = _env()
        self.live: set[int] = set()
        self.durations: list[float] = []
        Kith._instances.add(self)

    @classmethod
    def kill_all_instances(cls) -> None:
        """SIGKILLs every process group any instance started and still tracks (the harness is stopping)."""
        for instance in list(cls._instances):
            instance.kill_everything()

    def run(self, home: str, *args: str, ok=(0,), timeout: float = 180) -> subprocess.CompletedProcess:
        """Runs `kith ARGS --home HOME`; raises KithError when the exit code is not in `ok`."""
        cmd = self._with_home(list(args), home)
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.env, start_new_session=True)
        self.live.add(proc.pid)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._killpg(proc.pid)
            proc.communicate()
            raise KithError(f"timed out after {timeout}s: kith {' '.join(args)}")
        finally:
            self.live.discard(proc.pid)
        self.durations.append(time.monotonic() - start)
        if ok is not None and proc.returncode not in ok:
            raise KithError(f"kith {' '.join(_short(a) for a in args)} exited {proc.returncode}: {err.strip()[-400:]}")
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)

    def json(self, home: str, *args: str):
        """Runs a command with --json and returns the parsed output."""
        result = self.run(home, *args, "--json")
        out = result.stdout.strip()
        try:
            return json.loads(out)
        except ValueError:
            pass
        try:
            return json.loads(out.splitlines()[-1])
        except (ValueError, IndexError):
            raise KithError(f"kith {' '.join(_short(a) for a in args)} --json printed no JSON object: "
                            f"stdout {out[-400:]!r}, stderr {result.stderr.strip()[-400:]!r}") from None

    def spawn(self, home: str, *args: str, stdout=subprocess.PIPE, stderr=subprocess.PIPE) -> subprocess.Popen:
        """Starts a command in its own process group (stop it with `stop`)."""
        proc = subprocess.Popen(self._with_home(list(args), home), stdout=stdout, stderr=stderr, text=True,
                                env=self.env, start_new_session=True)
        self.live.add(proc.pid)
        return proc

    def stop(self, proc: subprocess.Popen) -> None:
        self._killpg(proc.pid)
        try:
            proc.communicate(timeout=30)
        except (subprocess.TimeoutExpired, ValueError):
            pass
        self.live.discard(proc.pid)

    def killed_sequence(self, home: str, commands: list[list[str]], rng, span: float, on_write: bool,
                        watch_homes: list[str] | None = None) -> KillReport:
        """Runs `commands` one after the other in `home` and SIGKILLs the running one.

        With `on_write` False the kill comes uniform(0, span) seconds after the start; with True it comes
        uniform(0, 25) ms after a write-ahead log of a watched home is written while a command runs (if no command
        writes, the sequence simply finishes)."""
        report = KillReport()
        deadline = None if on_write else time.monotonic() + rng.uniform(0, span)
        write_delay = rng.uniform(0, 0.025)
        target_index = rng.randrange(len(commands)) if on_write else None
        watch = [os.path.join(h, "kith.sqlite-wal") for h in (watch_homes or [home])]
        for index, args in enumerate(commands):
            proc = self.spawn(home, *args)
            baseline = {w: wal_mtime(w) for w in watch}
            kill_at = deadline
            try:
                while proc.poll() is None:
                    now = time.monotonic()
                    if on_write and index == target_index and kill_at is None:
                        if any(wal_mtime(w) != baseline[w] for w in watch):
                            kill_at = now + write_delay
                    if kill_at is not None and now >= kill_at:
                        self._killpg(proc.pid)
                        report.killed = True
                        report.kill_note = (f"command {index + 1}/{len(commands)} "
                                            + (f"{write_delay * 1000:.1f} ms after its first WAL write" if on_write
                                               else "after a random delay"))
                        break
                    time.sleep(0.001 if on_write else 0.003)
                out, err = proc.communicate(timeout=60)
            finally:
                self._killpg(proc.pid)
                self.live.discard(proc.pid)
            report.outcomes.append(Outcome(args, None if report.killed else proc.returncode, out, err))
            if report.killed:
                break
        return report

    def kill_everything(self) -> None:
        for pgid in list(self.live):
            self._killpg(pgid)
        self.live.clear()

    @staticmethod
    def _killpg(pgid: int) -> None:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def _with_home(self, args: list[str], home: str) -> list[str]:
        # Subcommand words first, then --home: `kith group send --home H ...` (options may follow the words).
        words = []
        rest = list(args)
        while rest and not rest[0].startswith("-") and _is_word(words, rest[0]):
            words.append(rest.pop(0))
        return [self.binary, *words, "--home", home, *rest]


_SUBCOMMANDS = {
    (): {"init", "id", "card", "contact", "contacts", "post", "dm", "log", "prekeys", "group", "groups", "feed",
         "sync", "invite", "circle", "rotate-keys"},
    ("contact",): {"add", "remove"},
    ("prekeys",): {"export", "import"},
    ("group",): {"create", "add", "remove", "send", "show", "keys", "explode", "leave"},
    ("group", "keys"): {"share"},
    ("feed",): {"export", "import", "verify"},
    ("sync",): {"listen", "connect"},
    ("invite",): {"create", "accept", "show", "revoke"},
    ("circle",): {"add", "send", "status", "revoke"},
}


def _is_word(words: list[str], candidate: str) -> bool:
    return candidate in _SUBCOMMANDS.get(tuple(words), set())


def wal_mtime(path: str) -> int:
    """The modification time of a file in ns (-1 when it does not exist): a changed value means a write."""
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def _short(arg: str) -> str:
    return arg if len(arg) <= 60 else arg[:20] + "…"
