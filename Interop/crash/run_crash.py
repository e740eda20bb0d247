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
import concurrent.futures
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from checks import Broken, integrity  # noqa: E402
from homes import build_template  # noqa: E402
from kith_driver import Kith, KithError  # noqa: E402
from scenarios import ROTATION_CASE, SCENARIOS, Round, rotated_twice_case  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=None,
                        help=f"rounds to run (scenario = round number mod {len(SCENARIOS)}; default: one per scenario)")
    parser.add_argument("--kills", type=int, default=4, help="kills per round (default 4)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: a fixed one; printed)")
    parser.add_argument("--round", type=int, action="append", dest="only",
                        help="run only this round number (repeatable), e.g. to reproduce a failure")
    parser.add_argument("--scenario", action="append", help="run only rounds of these scenarios (by name)")
    parser.add_argument("--kith", default=os.environ.get("KITH"), help="the kith binary (default: $KITH)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="rounds run at the same time (default 2; each round has its own homes)")
    parser.add_argument("--regressions", action="store_true",
                        help="only replay the deterministic regression cases (no kills); exit 1 when one fails")
    parser.add_argument("--keep", action="store_true", help="keep the homes of failing rounds (paths printed)")
    args = parser.parse_args()
    # Long mode (--rounds given) runs more rounds; both modes count every failure.
    args.long = args.rounds is not None
    args.rounds = len(SCENARIOS) if args.rounds is None else args.rounds
    if not args.kith:
        parser.error("set KITH or pass --kith")
    seed = 20261128 if args.seed is None else args.seed
    print(f"crash-consistency: seed {seed}, kith {args.kith}", flush=True)

    kith = Kith(os.path.abspath(args.kith))
    work = tempfile.mkdtemp(prefix="kith-crash-")
    failures, kills, rounds_run, scenarios_run = [], 0, 0, set()
    started = time.monotonic()
    printing = threading.Lock()
    try:
        template = build_template(kith, os.path.join(work, "template"))
        span = max(0.2, statistics.median(kith.durations))
        print(f"template ready in {time.monotonic() - started:.0f}s; median command {span:.2f}s", flush=True)
        broken = rotated_twice_case(template.copy_to(os.path.join(work, "regression"), kith))
        print(f"regression case {'FAILED: ' + broken if broken else 'ok'}: {ROTATION_CASE}", flush=True)
        if broken:
            failures.append({"number": -1, "scenario": "regression", "failed": broken,
                             "repro": f"KITH={args.kith} Interop/crash/run_crash.py --regressions"})
        if args.regressions:
            return 1 if broken else 0
        numbers = [n for n in (args.only or range(args.rounds))
                   if not args.scenario or SCENARIOS[n % len(SCENARIOS)].name in args.scenario]

        def one(number: int) -> None:
            nonlocal kills, rounds_run
            result = run_round(number, template, span, seed, args)
            with printing:
                kills += result["kills"]
                rounds_run += 1
                scenarios_run.add(result["scenario"])
                if result["status"] == "FAIL":
                    failures.append(result)
                print(result["text"], flush=True)

        pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
        try:
            for future in [pool.submit(one, n) for n in numbers]:
                future.result()
        finally:  # on an interrupt: no new rounds, and the running ones lose their processes at once
            pool.shutdown(wait=False, cancel_futures=True)
            Kith.kill_all_instances()
            pool.shutdown(wait=True)
    finally:
        Kith.kill_all_instances()
        if args.keep and failures:
            for name in os.listdir(work):  # the failing rounds' homes stay, with the template they came from
                if name.startswith("round-") and not os.path.exists(os.path.join(work, name, "a")):
                    shutil.rmtree(os.path.join(work, name), ignore_errors=True)
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{rounds_run} rounds in {time.monotonic() - started:.0f}s", flush=True)
    for result in sorted(failures, key=lambda r: r["number"]):
        reasons = "\n  ".join(line.strip()[:300] for line in result["failed"].splitlines())
        print(f"FAILED round {result['number']} ({result['scenario']}): {reasons}\n  reproduce: {result['repro']}")
    print(f"crash-consistency: {kills} kills, {len(scenarios_run)} scenarios, {len(failures)} failures")
    return 1 if failures else 0


def run_round(number: int, template, span: float, seed: int, args) -> dict:
    """One round on its own copy of the template homes and its own process bookkeeping; returns its outcome."""
    scenario = SCENARIOS[number % len(SCENARIOS)]
    kith = Kith(template.kith.binary)
    rng = random.Random(f"{seed}:{number}")
    homes = template.copy_to(os.path.join(os.path.dirname(template.root), f"round-{number}"), kith)
    rnd = Round(homes, rng, f"r{number}", span)
    repro = (f"KITH={args.kith} Interop/crash/run_crash.py --seed {seed} --kills {args.kills}"
             + (f" --rounds {args.rounds}" if args.long else "") + f" --round {number} --keep")
    notes, failed, kills = [], None, 0
    try:
        for n in range(args.kills):
            report = scenario.kill(rnd, n)
            kills += report.killed
            notes.append(report.kill_note if report.killed else "finished before the kill")
            if hasattr(scenario, "after_kill"):
                scenario.after_kill(rnd)
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
    status = "ok"
    if rnd.racy_bugs:  # the public.json rotation bug is fixed (README.md, "Bugs found and fixed"): it fails in both modes
        racy = "RacyBug: " + "; ".join(rnd.racy_bugs)
        failed = f"{failed}\n  {racy}" if failed else racy
    if failed:
        status = "FAIL"
    text = (f"round {number} {scenario.name}: {status}; kills: {'; '.join(notes)}"
            + (f"; notes: {'; '.join(rnd.notes)}" if rnd.notes else ""))
    if failed:
        text += f"\n  {failed}\n  kill points: {'; '.join(notes)}\n  reproduce: {repro}"
    if failed and args.keep:
        text += f"\n  homes kept in {homes.root}"
    else:
        shutil.rmtree(homes.root, ignore_errors=True)
    return {"number": number, "scenario": scenario.name, "status": status, "failed": failed or "",
            "repro": repro, "kills": kills, "text": text}


if __name__ == "__main__":
    sys.exit(main())
