"""`kith move receive` / `kith move send` end to end over loopback: a wrong code transfers nothing and leaves both
homes as they were; the right code moves the identity, the new home posts, and the old home refuses every command
that opens the account."""
import base64
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from move_checks import check_moved  # noqa: E402

KITH = os.environ.get("KITH", ".build/debug/kith")
work = tempfile.mkdtemp(prefix="kith-move-cli-")
env = dict(os.environ, KITH_PASSPHRASE="vault pass")


def kith(*args, check=True):
    result = subprocess.run([KITH, *args], env=env, capture_output=True, text=True, timeout=300)
    if check and result.returncode != 0:
        raise SystemExit(f"kith {' '.join(args)} failed ({result.returncode}): {result.stderr}")
    return result


def start_receiver(home):
    process = subprocess.Popen([KITH, "--home", home, "move", "receive", "--json", "--no-qr", "--timeout", "120"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    return process, json.loads(first)["move_code"]


old = os.path.join(work, "old")
kith("--home", old, "init")
kith("--home", old, "post", "before the move")
feed_id = json.loads(kith("--home", old, "id", "--json").stdout)["feed_id"]

# A wrong secret: the receiver refuses, nothing is written, the old home keeps working.
new = os.path.join(work, "new")
receiver, code = start_receiver(new)
payload = bytearray(base64.urlsafe_b64decode(code.split(".", 1)[1] + "=="))
payload[-1] ^= 1
wrong = "kithmove1." + base64.urlsafe_b64encode(bytes(payload)).decode().rstrip("=")
refused = kith("--home", old, "move", "send", wrong, check=False)
assert refused.returncode == 2, (refused.returncode, refused.stderr)
assert "wrong move code" in refused.stderr, refused.stderr
out, err = receiver.communicate(timeout=120)
assert receiver.returncode == 2 and "wrong move code" in err, (receiver.returncode, err)
assert not os.path.exists(new) or os.listdir(new) == [], os.listdir(new)
kith("--home", old, "post", "still on the old device")

# The right code.
receiver, code = start_receiver(new)
sent = kith("--home", old, "move", "send", code, "--json").stdout
check_moved(kith, receiver, sent, feed_id, new, old, ("before the move", "still on the old device"))
print("ok: move refused a wrong code, moved the identity, the old home refuses to post")
