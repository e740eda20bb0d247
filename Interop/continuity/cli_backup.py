"""`kith backup` end to end: create (recovery key), open the file with the independent Python reader, verify,
restore into a new home, refuse a wrong key and a damaged copy, and a scheduled run with a passphrase and pruning."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from kith_backup import BackupRefused, decode_store_rows, open_backup, parse_recovery_key  # noqa: E402

KITH = os.environ.get("KITH", ".build/debug/kith")
work = tempfile.mkdtemp(prefix="kith-backup-cli-")
env = dict(os.environ, KITH_PASSPHRASE="vault pass")
env.pop("KITH_BACKUP_PASSPHRASE", None)
env.pop("KITH_BACKUP_KEY", None)


def kith(*args, extra=None, check=True):
    result = subprocess.run([KITH, *args], env=dict(env, **(extra or {})), capture_output=True, text=True)
    if check and result.returncode != 0:
        raise SystemExit(f"kith {' '.join(args)} failed ({result.returncode}): {result.stderr}")
    return result


home = os.path.join(work, "old")
kith("--home", home, "init")
for text in ("first", "second", "third"):
    kith("--home", home, "post", text)
backup = os.path.join(work, "b.kithbackup")
created = json.loads(kith("--home", home, "backup", "create", backup, "--json").stdout)
key_text = created["recovery_key"]
assert len(key_text.replace(" ", "")) == 64 and len(key_text.split(" ")) == 16, key_text

manifest, records = open_backup(open(backup, "rb").read(), recovery_key=parse_recovery_key(key_text))
assert manifest["feed_id"] == created["feed_id"], manifest
assert any(kind == 2 and len(body) == 32 for kind, body in records), "no seed record"
assert any(kind == 0x30 for kind, _ in records), "no store rows"
own_messages = [columns for table, columns in decode_store_rows(records)
                if table == "messages" and columns["feed_id"] == created["feed_id"]]
assert len(own_messages) >= 3, own_messages
assert all(len(columns["message_id"]) == 43 for columns in own_messages), "derived message ids"

verified = json.loads(kith("backup", "verify", backup, "--json", extra={"KITH_BACKUP_KEY": key_text}).stdout)
assert verified["backup_id"] == created["backup_id"]

wrong = kith("backup", "verify", backup, extra={"KITH_BACKUP_KEY": "0" * 64}, check=False)
assert wrong.returncode == 4, (wrong.returncode, wrong.stderr)
damaged = os.path.join(work, "damaged.kithbackup")
data = bytearray(open(backup, "rb").read())
data[-2] ^= 1
open(damaged, "wb").write(data)
refused = kith("backup", "verify", damaged, extra={"KITH_BACKUP_KEY": key_text}, check=False)
assert refused.returncode == 1, (refused.returncode, refused.stderr)
try:
    open_backup(bytes(data), recovery_key=parse_recovery_key(key_text))
    raise SystemExit("the Python reader accepted a damaged copy")
except BackupRefused:
    pass

new_home = os.path.join(work, "new")
restored = json.loads(kith("--home", new_home, "backup", "restore", backup, "--json", extra={"KITH_BACKUP_KEY": key_text}).stdout)
assert restored["feed_id"] == created["feed_id"]
ident = json.loads(kith("--home", new_home, "id", "--json").stdout)
assert ident["feed_id"] == created["feed_id"]
blocked = kith("--home", new_home, "post", "too early", check=False)
assert blocked.returncode != 0 and "device_migration" in blocked.stderr, blocked.stderr
pending = json.loads(kith("--home", new_home, "backup", "status", "--json").stdout)
assert pending["waiting_for_head"] and not pending["complete"], pending
kith("--home", new_home, "rotate-keys", "--reason", "device_migration")
settled = json.loads(kith("--home", new_home, "backup", "status", "--json").stdout)
assert not settled["waiting_for_head"] and settled["complete"], settled
assert "prekeys: sent to 0 of 0 contacts" in kith("--home", new_home, "backup", "status").stdout
again = kith("--home", new_home, "backup", "restore", backup, extra={"KITH_BACKUP_KEY": key_text}, check=False)
assert again.returncode == 2, (again.returncode, again.stderr)

folder = os.path.join(work, "scheduled")
for _ in range(3):
    kith("--home", home, "backup", "schedule", "--dir", folder, "--keep", "2", extra={"KITH_BACKUP_PASSPHRASE": "backup pass"})
kept = sorted(os.listdir(folder))
assert len(kept) <= 2 and kept, kept
opened, _ = open_backup(open(os.path.join(folder, kept[-1]), "rb").read(), passphrase="backup pass")
assert opened["feed_id"] == created["feed_id"]
print(f"backup created, read by Python ({len(records)} records), verified, restored, guarded, re-established; {len(kept)} scheduled kept")
