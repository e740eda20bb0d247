"""What `cli_move.py` and `cli_move_relay.py` check after a successful `kith move`: both sides report the same feed
id and confirmation, the new home posts and holds every earlier post, the old home refuses and holds no vault."""
import json
import os


def check_moved(kith, receiver, sent_stdout, feed_id, new, old, earlier_posts):
    """`receiver` is the finished `move receive --json` process, `sent_stdout` the `move send --json` output."""
    sent = json.loads(sent_stdout)
    out, err = receiver.communicate(timeout=300)
    assert receiver.returncode == 0, err
    received = json.loads(out.strip().splitlines()[-1])
    assert received["feed_id"] == feed_id == sent["feed_id"], (received, sent)
    assert received["confirmation"] == sent["confirmation"]
    kith("--home", new, "post", "from the new device")
    log = kith("--home", new, "log").stdout
    for text in (*earlier_posts, "from the new device"):
        assert text in log, log
    after = kith("--home", old, "post", "must not work", check=False)
    assert after.returncode == 2 and "handed its identity" in after.stderr, (after.returncode, after.stderr)
    assert not os.path.exists(os.path.join(old, "identity.vault"))
