"""Checks TestVectors/continuity/backup-v1.json with the independent reader, and that damaged copies are refused."""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from kith_backup import BackupRefused, decode_store_rows, open_backup, parse_recovery_key  # noqa: E402

path = sys.argv[1] if len(sys.argv) > 1 else "TestVectors/continuity/backup-v1.json"
vector = json.load(open(path))
checked = 0
for case in vector["cases"]:
    data = bytes.fromhex(case["file_hex"])
    secret = {}
    if "recovery_key" in case:
        key = parse_recovery_key(case["recovery_key"])
        assert key.hex() == case["recovery_key_bytes"], "recovery key text decodes to other bytes"
        secret = {"recovery_key": key}
    else:
        secret = {"passphrase": case["passphrase"]}
    manifest, records = open_backup(data, **secret)
    assert json.dumps(manifest, sort_keys=True, separators=(",", ":")) == case["manifest"], "manifest differs"
    assert len(records) == len(case["records"]), "record count differs"
    for (kind, body), expected in zip(records, case["records"]):
        assert kind == expected["kind"] and len(body) == expected["length"], "record kind/length differs"
        assert hashlib.sha256(body).hexdigest() == expected["sha256"], "record body differs"
    # Compact store rows: table headers, values only, repeats, the derived message id.
    decoded = decode_store_rows(records)
    expected_rows = []
    for row in case["store_rows"]:
        columns = {name: (bytes.fromhex(value["hex"]) if isinstance(value, dict) else value)
                   for name, value in row["columns"].items()}
        expected_rows.append((row["table"], columns))
    assert decoded == expected_rows, f"store rows differ: {decoded} != {expected_rows}"
    # Hostile copies: every one must be refused.
    damaged = {
        "truncated-last-chunk": data[:100 + 65552],
        "truncated-mid": data[:-5],
        "flipped": data[:200] + bytes([data[200] ^ 1]) + data[201:],
        "appended": data + b"\0",
    }
    if "recovery_key" in secret:
        damaged_wrong_key = bytes(32)
        try:
            open_backup(data, recovery_key=damaged_wrong_key)
            raise AssertionError("wrong key accepted")
        except BackupRefused:
            pass
    for name, copy in damaged.items():
        try:
            open_backup(copy, **secret)
            raise AssertionError(f"{name} accepted")
        except BackupRefused:
            pass
    checked += 1
print(f"{checked} backup vector cases read and 9 hostile copies refused by the independent reader")
