"""Scenario 2: PostgreSQL stops (fast shutdown: every connection cut) and starts again on the same port under two
running nodes. While it is down the nodes must answer (no hang): /health 503, REST 500. Once it is back, both nodes
must serve REST again, the relay across the nodes that was open before must carry frames again, and a new pair split
over A and B must signal and relay, all within RECOVERY_BOUND seconds, polled."""
import asyncio
import secrets
import time

from clients import Peer, pair, relay_pair, rest, round_trip_frame
from nodes import CheckFailed, Cluster, Node, expect

RECOVERY_BOUND = 60
PROBE_WAIT = 10.0  # the store-call deadline is 5 s (PostgresCallDeadline); an answer must come well within this


async def poll(what, attempt, started, bound=RECOVERY_BOUND):
    """Retries `attempt` (an async function that raises on failure) until it succeeds; returns seconds since `started`."""
    last = None
    while time.monotonic() - started < bound:
        try:
            await attempt()
            return time.monotonic() - started
        except (CheckFailed, OSError, asyncio.TimeoutError) as error:
            last = error
            await asyncio.sleep(0.25)
    raise CheckFailed(f"{what} did not recover within {bound} s after PostgreSQL came back (last error: {last!r}); "
                      "reproduce: two nodes on one cluster, `scripts/postgres-cluster.sh pause DIR` then `resume DIR PORT`")


async def probe_while_down(node):
    """/health and a REST create on a node while PostgreSQL is down, each given PROBE_WAIT seconds. The documented
    answers are 503 and 500; a request that gets no answer in time is reported as a finding (see docs/SERVER.md,
    "Faults and load": postgres-nio's pool holds the first requests while it retries its connection)."""
    findings, answers = [], []
    for name, method, path, body, wanted in (
            ("/health", "GET", "/health", None, 503),
            ("create", "POST", "/api/rooms", {"joinid": "down" + secrets.token_hex(4), "client1": "x", "expiresInSeconds": 60}, 500)):
        started = time.monotonic()
        try:
            status, answer = await asyncio.to_thread(rest, node.port, method, path, body, "127.0.0.1", PROBE_WAIT)
        except TimeoutError:
            findings.append(f"FINDING: node {node.name}: {name} with PostgreSQL down had no answer within {PROBE_WAIT:.0f} s")
            answers.append(f"{name} no answer in {PROBE_WAIT:.0f} s")
            continue
        expect(status == wanted, f"{name} on node {node.name} with PostgreSQL down: {status} {answer} (wanted {wanted})")
        answers.append(f"{name} {status} in {time.monotonic() - started:.2f} s")
    return f"node {node.name}: " + ", ".join(answers), findings


async def run(duration):
    cluster = Cluster()
    nodes, peers = [], []
    try:
        a = Node("a", cluster.url)
        nodes.append(a)
        b = Node("b", cluster.url)
        nodes.append(b)
        x, y = f"x-{secrets.token_hex(4)}", f"y-{secrets.token_hex(4)}"
        room = await asyncio.to_thread(pair, a.port, b.port, x, y)
        on_a, on_b = Peer("x on A", a.ws, x), Peer("y on B", b.ws, y)
        peers += [on_a, on_b]
        await on_a.open()
        await on_b.open()
        await relay_pair(on_a, on_b, room)
        await round_trip_frame(on_a, on_b, 0)
        await round_trip_frame(on_b, on_a, 1)

        paused = time.monotonic()
        await asyncio.to_thread(cluster.pause)
        await asyncio.sleep(0.5)
        probes = await asyncio.gather(*(probe_while_down(node) for node in nodes))
        for _, findings in probes:
            for finding in findings:
                print(finding)
        await asyncio.sleep(max(0.0, min(duration / 4, 30) - (time.monotonic() - paused)))
        await asyncio.to_thread(cluster.resume)
        resumed = time.monotonic()
        down = resumed - paused

        async def rest_on(node, other):
            await asyncio.to_thread(pair, node.port, other.port, "r1-" + secrets.token_hex(3), "r2-" + secrets.token_hex(3))

        rest_a = await poll("REST on node A", lambda: rest_on(a, b), resumed)
        rest_b = await poll("REST on node B", lambda: rest_on(b, a), resumed)

        sequence = [10]

        async def old_relay():
            on_a.drain_frames()
            on_b.drain_frames()
            sequence[0] += 2
            await round_trip_frame(on_a, on_b, sequence[0], timeout=2)
            await round_trip_frame(on_b, on_a, sequence[0] + 1, timeout=2)

        relay_old = await poll("the relay across the nodes opened before the restart", old_relay, resumed)
        expect(not on_a.closed.is_set() and not on_b.closed.is_set(), "a signaling socket was closed by the restart")

        async def new_pair():
            p, q = f"p-{secrets.token_hex(4)}", f"q-{secrets.token_hex(4)}"
            new_room = await asyncio.to_thread(pair, a.port, b.port, p, q)
            first, second = Peer("p on A", a.ws, p), Peer("q on B", b.ws, q)
            try:
                await first.open()
                await second.open()
                await relay_pair(first, second, new_room)
                await first.send({"type": "key_exchange", "publicKey": "k" * 32, "sessionId": "s1"})
                relayed = await second.event("key_exchange", timeout=10)
                expect(relayed.get("publicKey") == "k" * 32, f"key_exchange across the nodes: {relayed}")
                await round_trip_frame(first, second, 1, timeout=10)
                await round_trip_frame(second, first, 2, timeout=10)
            finally:
                await first.close()
                await second.close()

        new_cross = await poll("a new pair across the nodes", new_pair, resumed)
        recovery = max(rest_a, rest_b, relay_old, new_cross)
        for node in nodes:
            expect(node.alive(), f"node {node.name} exited: {node.log_tail()}")
        print(f"postgres: down {down:.1f} s; while down: " + "; ".join(line for line, _ in probes)
              + f"; after the restart REST on A {rest_a:.1f} s, on B {rest_b:.1f} s, the old cross-node relay "
              f"{relay_old:.1f} s, a new cross-node pair {new_cross:.1f} s")
        return {"recovery": recovery, "down": down, "findings": sum(len(findings) for _, findings in probes)}
    finally:
        for peer in peers:
            await peer.close()
        for node in nodes:
            node.stop()
        cluster.stop()
