#!/usr/bin/env python3
"""Crash consistency of Kith's store: real `kith` processes SIGKILLed at random points, then checked.

Each round copies prepared homes (Alice, Bob, Carol), runs one scenario's command several times with a SIGKILL at a
random moment (a random delay, or a few milliseconds after the home's write-ahead log is first written), checks
`PRAGMA integrity_check` of every SQLite file after each kill, then recovers and checks that every acknowledged
message is present once, the own feed verifies, one-time keys were not used twice, and direct, group (MLS) and
one-time conversations continue both ways with each message decrypted exactly once. See Interop/crash/README.md.

Short mode (the test command): no --rounds, one round per scenario. Long run: --rounds 300.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from checks import Broken, integrity  # noqa: E402
from homes import build_template  # noqa: E402
from kith_driver import Kith, KithError  # noqa: E402
from scenarios import SCENARIOS, Round  # noqa: E402

# Scenarios whose failure is deterministic and known (name -> reason); they are reported, not counted as failures.
EXPECTED_FAIL: dict[str, str] = {}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=len(SCENARIOS),
                        help=f"rounds to run (scenario = round number mod {len(SCENARIOS)}; default: one per scenario)")
    parser.add_argument("--kills", type=int, default=4, help="kills per round (default 4)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: a fixed one; printed)")
    parser.add_argument("--round", type=int, action="append", dest="only",
                        help="run only this round number (repeatable), e.g. to reproduce a failure")
    parser.add_argument("--scenario", action="append", help="run only rounds of these scenarios (by name)")
    parser.add_argument("--kith", default=os.environ.get("KITH"), help="the kith binary (default: $KITH)")
    parser.add_argument("--keep", action="store_true", help="keep the homes of failing rounds (paths printed)")
    args = parser.parse_args()
    if not args.kith:
        parser.error("set KITH or pass --kith")
    seed = 20261128 if args.seed is None else args.seed
    print(f"crash-consistency: seed {seed}, kith {args.kith}", flush=True)

    kith = Kith(os.path.abspath(args.kith))
    work = tempfile.mkdtemp(prefix="kith-crash-")
    failures, kills, rounds_run, scenarios_run = [], 0, 0, set()
    started = time.monotonic()
    try:
        template = build_template(kith, os.path.join(work, "template"))
        span = max(0.2, statistics.median(kith.durations))
        print(f"template ready in {time.monotonic() - started:.0f}s; median command {span:.2f}s", flush=True)
        numbers = args.only or range(args.rounds)
        for number in numbers:
            scenario = SCENARIOS[number % len(SCENARIOS)]
            if args.scenario and scenario.name not in args.scenario:
                continue
            rng = random.Random(f"{seed}:{number}")
            homes = template.copy_to(os.path.join(work, f"round-{number}"))
            rnd = Round(homes, rng, f"r{number}", span)
            repro = (f"Interop/crash/run_crash.py --seed {seed} --kills {args.kills} --round {number}")
            notes, failed = [], None
            try:
                for n in range(args.kills):
                    report = scenario.kill(rnd, n)
                    kills += report.killed
                    notes.append(report.kill_note if report.killed else "finished before the kill")
                    try:
                        integrity(homes)
                    except Broken as broken:
                        raise Broken(f"after kill {n + 1} ({notes[-1]}): {broken}") from None
                scenario.finish(rnd)
                integrity(homes)
            except (Broken, KithError) as error:
                failed = f"{type(error).__name__}: {error}"
            except Exception:  # noqa: BLE001 - a harness bug is reported as the round's failure, with its trace
                failed = "harness error: " + traceback.format_exc(limit=3)
            finally:
                kith.kill_everything()
            rounds_run += 1
            scenarios_run.add(scenario.name)
            status = "ok"
            if failed and scenario.name in EXPECTED_FAIL:
                status = f"expected-fail ({EXPECTED_FAIL[scenario.name]})"
            elif failed:
                status = "FAIL"
                failures.append((number, scenario.name, failed, notes, repro))
            print(f"round {number} {scenario.name}: {status}; kills: {'; '.join(notes)}"
                  + (f"; notes: {'; '.join(rnd.notes)}" if rnd.notes else ""), flush=True)
            if failed:
                print(f"  {failed}\n  reproduce: {repro}", flush=True)
            if not (failed and args.keep):
                shutil.rmtree(homes.root, ignore_errors=True)
            else:
                print(f"  homes kept in {homes.root}", flush=True)
    finally:
        kith.kill_everything()
        if not (args.keep and failures):
            shutil.rmtree(work, ignore_errors=True)
    print(f"{rounds_run} rounds in {time.monotonic() - started:.0f}s", flush=True)
    for number, name, failed, notes, repro in failures:
        print(f"FAILED round {number} ({name}): {failed.splitlines()[0]}\n  reproduce: {repro}")
    print(f"crash-consistency: {kills} kills, {len(scenarios_run)} scenarios, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
