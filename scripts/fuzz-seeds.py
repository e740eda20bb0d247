#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (Fuzz/Corpus/TARGET/) from the published and the
vendored test vectors, plus a few hand-made inputs of formats that have no vector. Deterministic:
running it again rewrites the same files. Usage: scripts/fuzz-seeds.py [OUTPUT_DIR]"""
import base64, hashlib, json, os, shutil, struct, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Fuzz", "Corpus")
MAX_SEED = 64 * 1024  # libFuzzer's default -max_len is smaller; longer seeds are skipped
seeds = {}

def load(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        return json.load(handle)

def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

def add(target, data, limit=16):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if len(data) > MAX_SEED or len(seeds.setdefault(target, [])) >= limit:
        return
    if data not in seeds[target]:
        seeds[target].append(data)

feed = load("TestVectors/feed/feed-v1.json")
known = sorted(["post", "reaction", "profile_update", "contact_introduction", "key_rotation", "group_event", "tombstone",
                "prekey_batch", "mls_key_package", "mls_group_tree", "invite_join_request", "invite_join_error", "push_tokens"]) + ["later_type"]
lines = []
for entry in feed["chain"]:
    add("feed-envelope", entry["envelope"])
    add("canonical-json", entry["envelope"])
    lines.append(entry["envelope"])
    if entry.get("stub"):
        add("feed-envelope", entry["stub"])
    plaintext = entry["content_plaintext"]
    add("canonical-json", plaintext)
    content_type = json.loads(plaintext).get("type", "post")
    if content_type in known:
        add("feed-content", bytes([known.index(content_type)]) + plaintext.encode())
add("feed-chain", "\n".join(lines))
add("feed-chain", "\n".join(lines[:2]))
for key in ("identity_key", "feed_id", "dh_key"):
    add("text-encodings", feed["keys"][key])
add("text-encodings", "MFRGGZDFMZTWQ2LK")
add("text-encodings", "00ff10ab")
for invalid in feed.get("invalid", []):
    for key in ("envelope", "line", "lines"):
        if isinstance(invalid.get(key), str):
            add("feed-envelope", invalid[key])

contacts = load("TestVectors/contacts/contacts-v1.json")
add("contact-card", b64url(contacts["card"]["text"]))
add("contact-card", contacts["card"]["text"])
add("feed-content", bytes([known.index("post")]) + contacts["message"]["plaintext"].encode())
add("text-encodings", contacts["card"]["text"])
for key in ("slot_info_hex", "recipient_slot_id_hex"):
    add("contacts-recipient-map", bytes.fromhex(contacts["message"][key]))
add("contacts-recipient-map", bytes([1, 0, 1]) + bytes(48))

compact = load("TestVectors/cards/compact-v1.json")
add("compact-card", bytes.fromhex(compact["compact_hex"]))
add("compact-card", compact["compact_text"])
add("contact-card", bytes.fromhex(compact["full_card_hex"]))
full = bytes.fromhex(compact["full_card_hex"])
add("card-phase", bytes([0x01, 0x00]))
add("card-phase", bytes([0x01, 0x01]) + bytes.fromhex(compact["commitment_hex"]))
add("card-phase", bytes([0x02]) + struct.pack(">H", len(full)) + full)
add("card-phase", bytes([0x03]))

add("vault-file", b"KITHVLT1" + bytes([0x01, 15, 8, 1]) + bytes(range(16)) + bytes(60))
add("vault-file", b"KITHVLT1" + bytes([0x01, 30, 8, 1]) + bytes(16) + bytes(60))

message_id = hashlib.sha256(b"fuzz").digest()
chunk = message_id + struct.pack(">HH", 0, 1) + b"hello"
add("sync-records", bytes([0x05]))
add("sync-records", bytes([0x0A]))
add("sync-records", bytes([0x03]) + struct.pack(">H", len(chunk)) + chunk + bytes([0x05]))
add("sync-records", bytes([0x01]) + bytes(40))
add("sync-records", bytes([0x06]) + bytes(16) + struct.pack(">H", 1) + struct.pack(">II", 1, 5))
add("sync-reassembly", bytes([0]) + chunk)
two = [message_id + struct.pack(">HH", i, 2) + (b"ab" if i == 0 else b"cd") for i in range(2)]
add("sync-reassembly", bytes([0]) + two[0] + b"\xfe\xed" + two[1])
add("sync-reassembly", bytes([1]) + bytes([0x00]) + b'{"a":1}')

noise = load("Tests/Vectors/noise/noise_25519_chachapoly_sha256.json")
for vector in noise["vectors"]:
    name = vector["protocol_name"]
    messages = vector["messages"]
    if name == "Noise_XX_25519_ChaChaPoly_SHA256":
        add("noise-handshake", bytes([0]) + bytes.fromhex(messages[0]["ciphertext"]))
        add("noise-handshake", bytes([2]) + bytes.fromhex(messages[1]["ciphertext"]))
    if name == "Noise_IK_25519_ChaChaPoly_SHA256":
        add("noise-handshake", bytes([1]) + bytes.fromhex(messages[0]["ciphertext"]))
        add("noise-handshake", bytes([3]) + bytes.fromhex(messages[1]["ciphertext"]))

session = load("TestVectors/ratchet/hybrid-session.json")
for message in session["messages"]:
    add("direct-message", b64url(message["wire"]) if not all(c in "0123456789abcdef" for c in message["wire"]) else bytes.fromhex(message["wire"]))
handover = load("TestVectors/direct/prekey-handover-v1.json")
add("prekeys", handover["handover_text"])
add("prekeys", bytes.fromhex(handover["handover_hex"]))
for invalid in handover.get("invalid", []):
    add("prekeys", bytes.fromhex(invalid["handover_hex"]))

mls = load("Tests/Vectors/mls/messages.json")
for case in mls[:3]:
    for key in ("mls_welcome", "mls_group_info", "mls_key_package", "public_message_application", "public_message_proposal",
                "public_message_commit", "private_message"):
        add("mls-message", bytes.fromhex(case[key]), limit=24)
    add("mls-ratchet-tree", bytes.fromhex(case["ratchet_tree"]))
welcome = load("Tests/Vectors/mls/welcome.json")
for case in welcome[:4]:
    for key in ("welcome", "key_package"):
        message = bytes.fromhex(case[key])
        add("mls-welcome", message[4:])  # without the MLSMessage version and wire format
groups = load("TestVectors/groups/groups-v1.json")
add("mls-message", bytes.fromhex(groups["mls_message_hex"]), limit=24)
add("group-policy", bytes.fromhex(groups["policy"]["extension_data_hex"]))
readmission = groups["committer_readmission"]
add("group-policy", bytes.fromhex(readmission["policy_v2_extension_data_hex"]))
add("group-policy", bytes.fromhex(readmission["warrant_hex"]))
for bad in readmission["invalid_warrant_hex"]:
    add("group-policy", bytes.fromhex(bad))
for case in load("Tests/Vectors/mls/tree-validation.json")[:8]:
    add("mls-ratchet-tree", bytes.fromhex(case["tree"]))

for vector in load("TestVectors/invites/kith-invites-v1.json"):
    add("invite", vector["code"])
    add("invite", vector["url"])
    add("invite", bytes.fromhex(vector["signed_invite"]))
    add("invite", bytes.fromhex(vector["payload"]))
convos = load("Tests/Vectors/convos-invites/python-invites.json")
for vector in (convos["vectors"] if isinstance(convos["vectors"], list) else convos["vectors"].values()):
    add("invite", vector["slug"])
    add("invite", vector["url"])
for case in load("Tests/Vectors/convos/appdata-python-protobuf.json")["cases"]:
    add("conversation-metadata", case["appData"])
add("invite-exchange", bytes([0x05]) + bytes(range(32)))
add("invite-exchange", bytes([0x01]) + struct.pack(">H", len(full)) + full)
add("invite-exchange", bytes([0x02]) + struct.pack(">H", 6) + b"ABCDEF" + struct.pack(">H", 4) + b"card" + struct.pack(">H", 2) + b"kp")
add("invite-exchange", bytes([0x03]) + struct.pack(">I", 4) + b"welc" + struct.pack(">I", 0))
add("invite-exchange", bytes([0x04, 7]) + b"expired" + struct.pack(">H", 6) + b"reason")

tdf = load("TestVectors/nanotdf/kith-dialect-v1.json")
for vector in tdf["vectors"]:
    add("nanotdf", bytes.fromhex(vector["nanotdf_hex"]))
    add("relay-message", bytes.fromhex(vector["nanotdf_hex"]))
# The Arkavo/OpenTDFKit dialect (docs/TDF.md, Dialects): files as the Arkavo app writes them (an L1M header with a
# 0x0F locator and the recipient key; an L1L one) and as Kith writes them for the app's reader.
for name in ("arkavo-app-files-v1.json", "kith-to-arkavo-v1.json"):
    for vector in load("TestVectors/nanotdf/" + name)["vectors"]:
        add("nanotdf", bytes.fromhex(vector["nanotdf_hex"]), limit=24)
        add("relay-message", bytes.fromhex(vector["nanotdf_hex"]))
for folder in ("upstream", "generated", "derived"):
    directory = os.path.join(ROOT, "Tests/Vectors/nanotdf", folder)
    for name in sorted(os.listdir(directory)):
        if name.endswith(".ntdf"):
            with open(os.path.join(directory, name), "rb") as handle:
                add("nanotdf", handle.read(), limit=24)
pool_id = bytes(range(16))
add("pool-exchange", bytes([0x01, 0x01]) + pool_id + bytes(32) + struct.pack(">H", 8))
add("pool-exchange", bytes([0x01, 0x02]) + pool_id + bytes(64) + struct.pack(">I", 1) + bytes(33))
add("pool-exchange", bytes([0x01, 0x04]) + pool_id + bytes(32))
add("pool-exchange", bytes([0x01, 0x06]) + bytes(16))

push = load("TestVectors/push/aes128gcm-padded.json")
add("web-push-message", b64url(push["body"]))
rfc8291 = load("Tests/Vectors/rfc8291/appendix-a.json")
for key, value in rfc8291.items():
    if isinstance(value, str) and len(value) > 100:
        try:
            add("web-push-message", b64url(value))
        except Exception:
            pass
vapid = load("TestVectors/push/vapid.json")
add("vapid-and-knocks", vapid["authorization"])
add("vapid-and-knocks", "1daf13e01982d3029cf09ae3d027a629")
add("vapid-and-knocks", '{"token":"1daf13e01982d3029cf09ae3d027a629","data":"hello"}')

for text in ('{"type":"join_room","roomId":"0123456789abcdef","deviceId":"dev-1"}', '{"type":"leave_room"}', '{"type":"ping"}',
             '{"type":"webrtc_offer","sdp":"v=0\\r\\n"}',
             '{"type":"ice_candidate","candidate":{"candidate":"candidate:1 1 UDP 1 127.0.0.1 9 typ host","sdpMLineIndex":0,"sdpMid":"0"}}',
             '{"type":"key_exchange","publicKey":"AAAA","sessionId":"s","timestamp":1}',
             '{"type":"connected","clientId":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","server":"WebRTC P2P Signaling Server"}',
             '{"type":"room_joined","roomId":"r","userCount":1,"isInitiator":true,"ready":false}',
             '{"type":"error","error":"Rate limit exceeded"}'):
    add("signaling", text)
for text in ('{"joinid":"123456","client1":"device-a","expiresInSeconds":600}', '{"joinid":"123456","client2":"device-b"}',
             '{"roomid":"0123456789abcdef0123456789abcdef0123456789abcdef"}', '{"deviceIds":["a","b"]}', '{"deviceId":"a"}',
             '{"ok":true,"exp":"2025-01-31T12:00:00.000Z"}', '{"error":"rate_limited","details":"x","count":2}',
             '{"username":"alice","password":"correct horse","email":null}', '{"apns_device":"ab12","name":"phone"}'):
    add("rest-bodies", text)
add("relay-message", bytes([0x01]) + chunk)
move_code = bytes([1]) + struct.pack(">H", 7460) + bytes([12]) + b"192.168.1.20" + bytes([0x11] * 32) + bytes([0x22] * 32)
add("move-formats", b"kithmove1." + base64.urlsafe_b64encode(move_code).rstrip(b"="))
add("move-formats", base64.urlsafe_b64encode(move_code).rstrip(b"="))
relay_move_code = bytes([2, 8]) + b"12345678" + bytes([0x11] * 32) + bytes([0x22] * 32)
add("move-formats", b"kithmove1." + base64.urlsafe_b64encode(relay_move_code).rstrip(b"="))
add("move-formats", base64.urlsafe_b64encode(relay_move_code).rstrip(b"="))
for message in (bytes([1]) + bytes([0x33] * 32), bytes([2]), bytes([3]) + struct.pack(">Q", 123456), bytes([4]) + b"stream bytes",
                bytes([5]), bytes([6]) + struct.pack(">Q", 7), bytes([7]) + b"wrong move code"):
    add("move-formats", message)

# backup-reader (docs/CONTINUITY.md section 2; key bytes 0..31): byte 0x01 + a payload the target seals itself
# (manifest with the seam's file id 41..56, records, compact store rows, end); byte 0x00 + a file: the start of the
# published vector's recovery-key case (header, key check, first chunk), and with `cryptography` at hand small whole
# files sealed like the target's seam.
def backup_record(kind, body):
    return struct.pack(">HI", kind, len(body)) + body

def backup_name(text):
    return bytes([len(text.encode())]) + text.encode()

def backup_payload(records):
    manifest = json.dumps({"backup_id": bytes(range(41, 57)).hex(), "blobs": False, "counts": {"messages": 2}, "created_at": 1800000000,
                           "feed_id": "kith:fuzz", "schema": 18, "window": None}, sort_keys=True, separators=(",", ":")).encode()
    return backup_record(1, manifest) + b"".join(backup_record(k, b) for k, b in records) + backup_record(0xFFFF, struct.pack(">Q", len(records)))

def backup_text(text):
    return b"\x02" + struct.pack(">I", len(text.encode())) + text.encode()

backup_header = backup_name("messages") + bytes([3]) + backup_name("feed_id") + backup_name("sequence") + backup_name("envelope_json")
backup_rows = [(0x31, backup_header),
               (0x30, backup_text("kith:feed") + b"\x01" + struct.pack(">q", 0) + backup_text('{"sequence":0}')),
               (0x30, b"\x04" + b"\x01" + struct.pack(">q", 1) + backup_text('{"sequence":1}')),
               (0x31, backup_name("blobs") + bytes([2]) + backup_name("content_hash") + backup_name("data")),
               (0x30, backup_text("h") + b"\x03" + struct.pack(">I", 3) + b"\x00\xff\x10")]
backup_payloads = [backup_payload([]), backup_payload([(2, bytes(range(32)))] + backup_rows), backup_payload(backup_rows[:3])]
for payload in backup_payloads:
    add("backup-reader", b"\x01" + payload)
backup_vector = load("TestVectors/continuity/backup-v1.json")["cases"][0]
add("backup-reader", b"\x00" + bytes.fromhex(backup_vector["file_hex"])[:MAX_SEED - 1])
try:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    def backup_file(payload):
        salt, prefix = bytes(range(9, 41)), bytes(range(57, 64))
        header = b"KITHBAK1" + bytes([1, 1, 0, 0, 0]) + salt + bytes(range(41, 57)) + prefix
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"kith backup v1 payload key").derive(bytes(range(32)))
        check = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"kith backup v1 key check").derive(key)
        out, start, counter = header + check, 0, 0
        while len(payload) - start > 65536:
            out += ChaCha20Poly1305(key).encrypt(prefix + struct.pack(">I", counter) + b"\x00", payload[start:start + 65536], header)
            start, counter = start + 65536, counter + 1
        return out + ChaCha20Poly1305(key).encrypt(prefix + struct.pack(">I", counter) + b"\x01", payload[start:], header)

    for payload in backup_payloads:
        add("backup-reader", b"\x00" + backup_file(payload))
except ImportError:
    print("cryptography not installed: backup-reader gets no whole-file seeds but the vector's start", file=sys.stderr)

# Only the targets written here are replaced: a target whose seeds are kept by hand (recovery-formats) stays as it is.
for target, inputs in sorted(seeds.items()):
    directory = os.path.join(OUT, target)
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory, exist_ok=True)
    for data in inputs:
        with open(os.path.join(directory, hashlib.sha1(data).hexdigest()[:16]), "wb") as handle:
            handle.write(data)
print(f"{sum(len(v) for v in seeds.values())} seeds for {len(seeds)} targets in {OUT}")
