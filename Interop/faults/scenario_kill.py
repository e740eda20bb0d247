"""Scenario 1: two nodes on one PostgreSQL, node B killed (SIGKILL) in the middle of a relay across the nodes.
The client on B sees its socket drop, reconnects to A with the same deviceId, rejoins the same room with its role,
and the relay resumes; A keeps serving throughout (/health polled, another pair on A relaying)."""
import asyncio
import secrets
import time

import websockets

from clients import Peer, activate_relay, pair, relay_pair, rest, round_trip_frame
from nodes import CheckFailed, Node, expect

DEAD_NODE_AFTER = 3


class Background:
    """A's /health polled and a second pair on A relaying, both until stopped; failures are collected."""

    def __init__(self, node, one, two):
        self.node, self.one, self.two = node, one, two
        self.failures, self.health_checks, self.frames = [], 0, 0
        self.running = True

    async def health(self):
        while self.running:
            try:
                status, answer = await asyncio.to_thread(rest, self.node.port, "GET", "/health")
                if status != 200:
                    self.failures.append(f"/health on A answered {status} {answer}")
            except OSError as error:
                self.failures.append(f"/health on A failed: {error}")
            self.health_checks += 1
            await asyncio.sleep(0.2)

    async def relay(self):
        sequence = 0
        while self.running:
            try:
                await round_trip_frame(self.one, self.two, sequence, timeout=15)
                await round_trip_frame(self.two, self.one, sequence + 1, timeout=15)
                self.frames += 2
            except (asyncio.TimeoutError, OSError) as error:
                self.failures.append(f"the other pair on A lost relay frame {sequence}: {error!r}")
                return
            sequence += 2
            await asyncio.sleep(0.05)


async def stream(one, two):
    """Relay frames both ways every 5 ms until cancelled or a socket fails."""
    sequence = 1 << 32
    try:
        while True:
            await one.socket.send(b"\x01" + sequence.to_bytes(8, "big"))
            await two.socket.send(b"\x01" + (sequence + 1).to_bytes(8, "big"))
            sequence += 2
            await asyncio.sleep(0.005)
    except websockets.ConnectionClosed:
        pass


async def rejoin(peer, room, timeout):
    """Joins `room` again, retrying while the room answers room_full (the stale member on the dead node)."""
    deadline = time.monotonic() + timeout
    while True:
        await peer.send({"type": "join_room", "roomId": room, "deviceId": peer.device})
        event = await peer.event(("room_joined", "room_full"))
        if event["type"] == "room_joined":
            return event
        if time.monotonic() > deadline:
            raise CheckFailed(f"rejoin after node B died: room_full for {timeout} s; the dead node's member was never "
                              "replaced nor swept (reproduce: pair across two nodes, SIGKILL one, rejoin on the other "
                              "with the same deviceId)")
        await asyncio.sleep(0.5)


async def run(database_url, duration):
    nodes, peers = [], []
    try:
        a = Node("a", database_url, "--dead-node-after", str(DEAD_NODE_AFTER))
        nodes.append(a)
        b = Node("b", database_url, "--dead-node-after", str(DEAD_NODE_AFTER))
        nodes.append(b)
        devices = {name: f"{name}-{secrets.token_hex(4)}" for name in ("a1", "b1", "a2", "b2", "c1", "d1")}
        room = await asyncio.to_thread(pair, a.port, a.port, devices["a1"], devices["b1"])
        other_room = await asyncio.to_thread(pair, a.port, a.port, devices["a2"], devices["b2"])
        late_room = await asyncio.to_thread(pair, a.port, a.port, devices["c1"], devices["d1"])
        a1, b1 = Peer("a1 on A", a.ws, devices["a1"]), Peer("b1 on B", b.ws, devices["b1"])
        a2, b2 = Peer("a2 on A", a.ws, devices["a2"]), Peer("b2 on A", a.ws, devices["b2"])
        # c1/d1: split too, but d1 comes back only after A's sweep has removed it (the room must remember the roles).
        c1, d1 = Peer("c1 on A", a.ws, devices["c1"]), Peer("d1 on B", b.ws, devices["d1"])
        peers += [a1, b1, a2, b2, c1, d1]
        for peer in peers:
            await peer.open()
        await relay_pair(a1, b1, room)
        await relay_pair(a2, b2, other_room)
        await relay_pair(c1, d1, late_room)
        background = Background(a, a2, b2)
        tasks = [asyncio.create_task(background.health()), asyncio.create_task(background.relay())]

        sequence = 0
        relay_until = time.monotonic() + max(1.0, duration / 4)
        while time.monotonic() < relay_until:  # relay across the nodes, both ways, before the fault
            await round_trip_frame(a1, b1, sequence)
            await round_trip_frame(b1, a1, sequence + 1)
            sequence += 2
        before_kill = sequence

        # Mid-relay: frames stream both ways, without waiting for each other, when B is killed.
        streamer = asyncio.create_task(stream(a1, b1))
        while b1.frames.qsize() < 20:
            await asyncio.sleep(0.01)
        killed_at = time.monotonic()
        b.kill()
        await asyncio.wait_for(b1.closed.wait(), 30)
        dropped_after = time.monotonic() - killed_at
        streamer.cancel()
        await asyncio.gather(streamer, return_exceptions=True)

        b1_again = Peer("b1 again on A", a.ws, devices["b1"])
        peers.append(b1_again)
        await b1_again.open()
        joined = await rejoin(b1_again, room, timeout=10 * DEAD_NODE_AFTER)
        expect(joined.get("roomId") == room, f"rejoined another room: {joined}")
        expect(joined.get("isInitiator") is False, f"b1 lost its role (responder) after the rejoin: {joined}")
        a1.drain_frames()
        await activate_relay(a1, b1_again)
        resumed_after = time.monotonic() - killed_at

        # Relay again past the moment A's sweep finds B dead: the sweep must not take the new membership.
        resume_until = time.monotonic() + max(3.0 * DEAD_NODE_AFTER, duration / 2)
        after = 0
        while time.monotonic() < resume_until:
            await round_trip_frame(a1, b1_again, sequence)
            await round_trip_frame(b1_again, a1, sequence + 1)
            sequence += 2
            after += 2
            await asyncio.sleep(0.02)
        for peer in (a1, b1_again):
            while not peer.events.empty():
                event = peer.events.get_nowait()
                expect(event.get("type") not in ("peer_disconnected", "peer_left", "left_room"),
                       f"{peer.name} got {event} after the relay resumed: the sweep of node B hit the rejoined member")

        expect(d1.closed.is_set(), "d1's socket on the killed node B is still open")
        gone = await c1.event("peer_disconnected", timeout=10 * DEAD_NODE_AFTER)
        swept_after = gone["_received"] - killed_at
        d1_again = Peer("d1 again on A", a.ws, devices["d1"])
        peers.append(d1_again)
        await d1_again.open()
        joined = await d1_again.join(late_room)
        expect(joined.get("isInitiator") is False, f"d1 lost its role (responder) after the sweep: {joined}")
        c1.drain_frames()
        await activate_relay(c1, d1_again)
        await round_trip_frame(c1, d1_again, 0)
        await round_trip_frame(d1_again, c1, 1)

        for room_id, first, second in ((room, "a1", "b1"), (late_room, "c1", "d1")):
            # Device ids are shown only to a member naming one of them (docs/SERVER.md 2.2).
            status, answer = await asyncio.to_thread(rest, a.port, "GET", f"/api/rooms?roomid={room_id}&deviceId={devices[first]}")
            expect(status == 200 and answer == {"roomid": room_id, "client1": devices[first], "client2": devices[second]},
                   f"room state after node B died: {status} {answer}")
        await asyncio.to_thread(pair, a.port, a.port, "late-1-" + secrets.token_hex(3), "late-2-" + secrets.token_hex(3))

        background.running = False
        await asyncio.gather(*tasks)
        expect(not background.failures, "A did not keep serving: " + "; ".join(background.failures[:5]))
        expect(a.alive(), f"node A exited: {a.log_tail()}")
        print(f"kill: {before_kill} frames relayed across A and B; B killed; b1's socket dropped after {dropped_after:.2f} s; "
              f"b1 rejoined the same room on A as responder and the relay resumed {resumed_after:.2f} s after the kill; "
              f"{after} frames after; B's members swept {swept_after:.1f} s after the kill, d1 rejoined after that as "
              f"responder and relayed; GET /api/rooms intact; A answered {background.health_checks} /health polls "
              f"and its other pair relayed {background.frames} frames without a loss")
        return {"resumed": resumed_after, "swept": swept_after}
    finally:
        for peer in peers:
            await peer.close()
        for node in nodes:
            node.stop()
