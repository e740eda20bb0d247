#!/usr/bin/env python3
"""Faults and load for `kith serve` (docs/SERVER.md, "Faults and load"): two nodes on one PostgreSQL, loopback only.

1. kill: node B is SIGKILLed in the middle of a relay across A and B; its client rejoins on A, the relay resumes.
2. postgres: PostgreSQL restarts under both nodes; REST and cross-node signaling recover (time measured).
3. flood: bad requests from 127.0.0.1 as fast as one process can send them, while good clients from 127.0.0.2 pair
   and relay; their latency with and without the flood is reported, their success and a generous p99 asserted.

Uses $KITH (the `kith` executable) and $KITH_TEST_POSTGRES_URL when set (scenarios 1 and 3; scenario 2 restarts a
cluster of its own, scripts/postgres-cluster.sh), else a throwaway cluster for everything. Every process it starts is
stopped in a finally block; every wait is bounded. The last line is the summary.

  check_faults.py [--duration S] [--scenario kill|postgres|flood ...] [--p99-budget S] [--fail-on-findings]
"""
import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenario_flood  # noqa: E402
import scenario_kill  # noqa: E402
import scenario_postgres  # noqa: E402
from nodes import CheckFailed, Cluster  # noqa: E402

SCENARIOS = ("kill", "postgres", "flood")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=8.0,
                        help="seconds of each flood phase (alone, then under flood) and the scale of the relays (default 8)")
    parser.add_argument("--scenario", action="append", choices=SCENARIOS, help="run only these (repeatable)")
    parser.add_argument("--p99-budget", type=float, default=3.0,
                        help="the good clients' p99 under flood must stay below this many seconds (default 3: debug builds on a loaded 2-core machine)")
    parser.add_argument("--fail-on-findings", action="store_true",
                        help="fail when a request gets no answer while PostgreSQL is down (reported, not failed, by default)")
    parsed = parser.parse_args()
    if not 2 <= parsed.duration <= 3600:
        parser.error("--duration must be 2 to 3600 seconds")
    return parsed


async def run(options, shared_url):
    chosen = options.scenario or list(SCENARIOS)
    parts, results = [], {}
    if "kill" in chosen:
        results["kill"] = await scenario_kill.run(shared_url, options.duration)
        parts.append(f"B killed mid-relay, relay resumed on A after {results['kill']['resumed']:.2f} s")
    if "postgres" in chosen:
        results["postgres"] = await scenario_postgres.run(options.duration)
        if options.fail_on_findings and results["postgres"]["findings"]:
            raise CheckFailed(f"{results['postgres']['findings']} requests had no answer while PostgreSQL was down (FINDING lines above)")
        parts.append(f"recovery after PostgreSQL restart {results['postgres']['recovery']:.1f} s")
    if "flood" in chosen:
        flood = results["flood"] = await scenario_flood.run(shared_url, options.duration, options.p99_budget)
        parts.append(f"good REST p99 {flood['rest_alone'] * 1000:.0f} ms alone, {flood['rest_flood'] * 1000:.0f} ms under flood "
                     f"({flood['rest_flood'] / flood['rest_alone']:.1f}x); relay p99 {flood['relay_alone'] * 1000:.0f} ms alone, "
                     f"{flood['relay_flood'] * 1000:.0f} ms under flood ({flood['relay_flood'] / flood['relay_alone']:.1f}x)")
    print(f"serve-faults: {len(chosen)} scenarios ok; " + "; ".join(parts))


def main():
    options = arguments()
    cluster = None
    try:
        shared_url = os.environ.get("KITH_TEST_POSTGRES_URL")
        if not shared_url:
            cluster = Cluster()
            shared_url = cluster.url
        asyncio.run(run(options, shared_url))
    except CheckFailed as failure:
        print(f"FAILED: {failure}")
        sys.exit(1)
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
