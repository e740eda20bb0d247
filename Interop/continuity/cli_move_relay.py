"""`kith move receive --server` / `kith move send` through a real `kith serve` join-code relay (docs/CONTINUITY.md
section 7, "Through a relay"), loopback only: a code whose secret is wrong transfers nothing (both sides refuse, the
new home stays empty, the old one keeps working); a code whose join code is wrong finds no room; Ctrl-C on a waiting
receiver deletes its room; the right code alone (it names the server) moves the identity. Afterwards the server holds no room or pending code,
and its log names neither a join code nor a move code."""
import base64
import json
import os
import re
import signal
import sqlite3
import subprocess
import tempfile
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from move_checks import check_moved  # noqa: E402

KITH = os.environ.get("KITH", ".build/debug/kith")
work = tempfile.mkdtemp(prefix="kith-move-relay-")
env = dict(os.environ, KITH_PASSPHRASE="vault pass")
env.pop("KITH_SERVER", None)


def kith(*args, check=True):
    result = subprocess.run([KITH, *args], env=env, capture_output=True, text=True, timeout=300)
    if check and result.returncode != 0:
        raise SystemExit(f"kith {' '.join(args)} failed ({result.returncode}): {result.stderr}")
    return result


serve_out = open(os.path.join(work, "serve.out"), "w+")
serve_err = open(os.path.join(work, "serve.err"), "w+")
serve = subprocess.Popen([KITH, "serve", "--home", os.path.join(work, "srv"), "--port", "0"], env=env,
                         stdout=serve_out, stderr=serve_err, text=True)
try:
    port = None
    for _ in range(600):
        serve_out.seek(0)
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", serve_out.read())
        if match:
            port = match.group(1)
            break
        time.sleep(0.1)
    assert port, "kith serve did not print its port"
    server = f"http://127.0.0.1:{port}"

    def start_receiver(home):
        process = subprocess.Popen(
            [KITH, "--home", home, "move", "receive", "--server", server, "--json", "--no-qr", "--timeout", "120"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = process.stdout.readline()
        assert first, process.communicate(timeout=60)
        return process, json.loads(first)["move_code"]

    def payload(code):
        return bytearray(base64.urlsafe_b64decode(code.split(".", 1)[1] + "=="))

    def text(data):
        return "kithmove1." + base64.urlsafe_b64encode(bytes(data)).decode().rstrip("=")

    old = os.path.join(work, "old")
    kith("--home", old, "init")
    kith("--home", old, "post", "before the move")
    feed_id = json.loads(kith("--home", old, "id", "--json").stdout)["feed_id"]
    seen_codes = []

    # A wrong secret: the proof fails, the receiver refuses, nothing is written, the old home keeps working.
    new = os.path.join(work, "new")
    receiver, code = start_receiver(new)
    seen_codes.append(code)
    data = payload(code)
    # First byte 0x03: the code names the server it was offered on, after the join code.
    assert data[0] == 0x03, data[0]
    join_code = data[2:2 + data[1]].decode()
    assert re.fullmatch(r"[0-9]{8}", join_code), join_code
    named = data[3 + data[1]:3 + data[1] + data[2 + data[1]]].decode()
    assert named == server, (named, server)
    data[-1] ^= 1
    refused = kith("--home", old, "move", "send", text(data), "--server", server, check=False)
    assert refused.returncode == 2 and "wrong move code" in refused.stderr, (refused.returncode, refused.stderr)
    out, err = receiver.communicate(timeout=120)
    assert receiver.returncode == 2 and "wrong move code" in err, (receiver.returncode, err)
    assert not os.path.exists(new) or os.listdir(new) == [], os.listdir(new)
    kith("--home", old, "post", "still on the old device")

    # Ctrl-C while waiting for the old device: the room is deleted, the command ends with 130.
    receiver, code = start_receiver(new)
    seen_codes.append(code)
    receiver.send_signal(signal.SIGINT)
    out, err = receiver.communicate(timeout=120)
    assert receiver.returncode == 130 and "deleting the room" in err, (receiver.returncode, err)

    # A wrong join code finds no room and sends nothing; the right code then moves the identity.
    receiver, code = start_receiver(new)
    seen_codes.append(code)
    data = payload(code)
    data[2] = ord("0") if data[2] != ord("0") else ord("1")
    missing = kith("--home", old, "move", "send", text(data), "--server", server, check=False)
    assert missing.returncode != 0 and "unknown or expired join code" in missing.stderr, (missing.returncode, missing.stderr)
    kith("--home", old, "post", "after a wrong join code")
    # The code alone is enough: the old device joins the room on the server the code names.
    sent = kith("--home", old, "move", "send", code, "--json").stdout
    check_moved(kith, receiver, sent, feed_id, new, old, ("before the move", "still on the old device", "after a wrong join code"))

    db = sqlite3.connect(os.path.join(work, "srv", "rendezvous.sqlite"))
    counts = [db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in ("rooms", "pendings")]
    assert counts == [0, 0], counts
    serve_out.seek(0)
    serve_err.seek(0)
    server_log = serve_out.read() + serve_err.read()
    for code in seen_codes:
        join = payload(code)
        assert code not in server_log and join[2:2 + join[1]].decode() not in server_log, "the server's log names a code"
finally:
    serve.terminate()
    serve.wait(timeout=60)
print("ok: move through kith serve refused a wrong secret and a wrong join code, Ctrl-C deleted the room, the right code alone (naming its server) moved the identity, no room left")
