#!/usr/bin/env python3
"""Independently re-derives TestVectors/ratchet/hybrid-session.json with Python `cryptography`.

Implements the receiving side of Kith's hybrid X3DH + Double Ratchet from docs/ratchet.md (wire
parsing, X3DH master secret, KDF_RK, KDF_CK, nonce, associated data, ChaCha20-Poly1305) and
decrypts every published message. ML-KEM-768 is not re-run here: a decapsulation is looked up in
the recorded encapsulations by ciphertext (the Swift test checks decapsulation itself).

Usage: check_session.py [path/to/hybrid-session.json]   (needs: pip install cryptography)
"""
import base64
import hashlib
import hmac
import json
import os
import struct
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

CT_SIZE = 1088


def hkdf(ikm, salt, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def dh(private_hex_or_bytes, public):
    private = bytes.fromhex(private_hex_or_bytes) if isinstance(private_hex_or_bytes, str) else private_hex_or_bytes
    out = X25519PrivateKey.from_private_bytes(private).exchange(X25519PublicKey.from_public_bytes(public))
    assert out != bytes(32), "all-zero DH output"
    return out


def public_of(private):
    return X25519PrivateKey.from_private_bytes(private).public_key().public_bytes_raw()


def kdf_rk(root, dh_out, pq_ss):
    out = hkdf(dh_out + (pq_ss or b""), root, b"Kith_DR_RK_v1", 64)
    return out[:32], out[32:]


def kdf_ck(chain):
    return hmac.new(chain, b"\x01", hashlib.sha256).digest(), hmac.new(chain, b"\x02", hashlib.sha256).digest()


def parse_wire(wire):
    offset = 0
    kind = wire[0]
    offset = 1
    prelude = None
    if kind == 0x02:
        ephemeral = wire[offset:offset + 32]
        offset += 32
        opk_id = None
        if wire[offset] == 0x01:
            opk_id = struct.unpack(">I", wire[offset + 1:offset + 5])[0]
            offset += 5
        else:
            assert wire[offset] == 0x00
            offset += 1
        pq_ct = wire[offset:offset + CT_SIZE]
        offset += CT_SIZE
        prelude = (ephemeral, opk_id, pq_ct)
    else:
        assert kind == 0x01, f"unknown type {kind}"
    dh_pub = wire[offset:offset + 32]
    n, pn = struct.unpack(">II", wire[offset + 32:offset + 40])
    flag = wire[offset + 40]
    offset += 41
    header_ct = None
    if flag == 0x01:
        header_ct = wire[offset:offset + CT_SIZE]
        offset += CT_SIZE
    else:
        assert flag == 0x00
    return prelude, (dh_pub, n, pn, header_ct), wire[:offset], wire[offset:]


class Receiver:
    """The receiving half of one party's ratchet, fed with that party's recorded randomness."""

    def __init__(self, own_ratchet_private, root, entropy_keys, decaps):
        self.dhs = own_ratchet_private
        self.root = root
        self.dhr = None
        self.ckr = None
        self.nr = 0
        self.keys = list(entropy_keys)
        self.decaps = decaps
        self.skipped = {}

    def step(self, their, pq_ct):
        pq_ss = self.decaps[pq_ct] if pq_ct is not None else None
        self.root, self.ckr = kdf_rk(self.root, dh(self.dhs, their), pq_ss)
        self.dhr, self.nr = their, 0
        self.dhs = self.keys.pop(0)
        # Our own next sending chain consumes one encapsulation; the sender side tracks it.
        return self.dhs

    def decrypt(self, header, header_bytes, body, ad_tail, nonce, own_send_pq_ss):
        dh_pub, n, pn, header_ct = header
        if (dh_pub, n) in self.skipped:
            mk = self.skipped.pop((dh_pub, n))
        else:
            if dh_pub != self.dhr:
                while self.ckr is not None and self.nr < pn:
                    mk, self.ckr = kdf_ck(self.ckr)
                    self.skipped[(self.dhr, self.nr)] = mk
                    self.nr += 1
                self.step(dh_pub, header_ct)
                self.root, _ = kdf_rk(self.root, dh(self.dhs, dh_pub), own_send_pq_ss.pop(0))
            while self.nr < n:
                mk, self.ckr = kdf_ck(self.ckr)
                self.skipped[(self.dhr, self.nr)] = mk
                self.nr += 1
            mk, self.ckr = kdf_ck(self.ckr)
            self.nr += 1
        return ChaCha20Poly1305(mk).decrypt(nonce, body, header_bytes + ad_tail)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "TestVectors", "ratchet", "hybrid-session.json")
    with open(path, encoding="utf-8") as handle:
        v = json.load(handle)
    alice, bob, hs = v["alice"], v["bob"], v["handshake"]
    a_keys = [bytes.fromhex(k) for k in v["alice_entropy"]["x25519_private_keys"]]
    b_keys = [bytes.fromhex(k) for k in v["bob_entropy"]["x25519_private_keys"]]
    a_enc = [(bytes.fromhex(e["ciphertext"]), bytes.fromhex(e["shared_secret"])) for e in v["alice_entropy"]["encapsulations"]]
    b_enc = [(bytes.fromhex(e["ciphertext"]), bytes.fromhex(e["shared_secret"])) for e in v["bob_entropy"]["encapsulations"]]
    failures = 0

    def check(name, ok):
        nonlocal failures
        if not ok:
            failures += 1
            print("mismatch:", name)

    # Feed ids and identity conversion inputs.
    for party in (alice, bob):
        fid = hashlib.sha256(bytes.fromhex(party["identity_public"])).digest()
        check("feed_id", base64.urlsafe_b64encode(fid).rstrip(b"=").decode() == party["feed_id"])
        check("identity x25519", public_of(bytes.fromhex(party["identity_x25519_private"])).hex() == party["identity_x25519_public"])

    # X3DH (responder side, as Bob computes it).
    first = bytes.fromhex(v["messages"][0]["wire"])
    prelude, header, _, _ = parse_wire(first)
    ephemeral, opk_id, pq_ct = prelude
    check("opk id", opk_id == v["bob_one_time_prekey"]["id"])
    alice_ik = bytes.fromhex(alice["identity_x25519_public"])
    dhs = [
        dh(bob["dh_private"], alice_ik),
        dh(bob["identity_x25519_private"], ephemeral),
        dh(bob["dh_private"], ephemeral),
        dh(v["bob_one_time_prekey"]["private"], ephemeral),
    ]
    for name, value in zip(("dh1", "dh2", "dh3", "dh4"), dhs):
        check(name, value.hex() == hs[name])
    check("x3dh pq ciphertext", pq_ct == a_enc[0][0])
    pq_ss = a_enc[0][1]
    master = hkdf(b"\xff" * 32 + b"".join(dhs) + pq_ss, b"ProximityApp_X3DH_v1",
                  (alice["feed_id"] + bob["feed_id"]).encode(), 32)
    check("master_secret", master.hex() == hs["master_secret"])

    decaps_for_bob = {ct: ss for ct, ss in a_enc[1:]}
    decaps_for_alice = {ct: ss for ct, ss in b_enc}
    # Alice's first ratchet key is her second random key; her initial chain has no pq secret.
    alice_root, _ = kdf_rk(master, dh(a_keys[1], bytes.fromhex(bob["dh_public"])), None)
    bob_rx = Receiver(bytes.fromhex(bob["dh_private"]), master, b_keys, decaps_for_bob)
    bob_send_pq = [ss for _, ss in b_enc]
    alice_rx = Receiver(a_keys[1], alice_root, a_keys[2:], decaps_for_alice)
    alice_rx.dhr = bytes.fromhex(bob["dh_public"])
    alice_send_pq = [ss for _, ss in a_enc[1:]]
    # Bob's first step (inside respond) uses no header pq ciphertext.
    first_step_done = False

    for index, message in enumerate(v["messages"]):
        wire = bytes.fromhex(message["wire"])
        _, header, header_bytes, body = parse_wire(wire)
        feed = message["feed_id"].encode()
        audience = message["audience"].encode()
        ad_tail = feed + struct.pack(">Q", message["sequence"]) + struct.pack(">H", len(audience)) + audience
        check(f"messages[{index}].associated_data", (header_bytes + ad_tail).hex() == message["associated_data"])
        nonce = hashlib.sha256(struct.pack(">Q", message["sequence"]) + feed).digest()[:12]
        check(f"messages[{index}].nonce", nonce.hex() == message["nonce"])
        receiver, own_pq = (bob_rx, bob_send_pq) if message["sender"] == "alice" else (alice_rx, alice_send_pq)
        if receiver is bob_rx and not first_step_done:
            first_step_done = True
            receiver.step(header[0], None)
            receiver.root, _ = kdf_rk(receiver.root, dh(receiver.dhs, header[0]), own_pq.pop(0))
        try:
            plaintext = receiver.decrypt(header, header_bytes, body, ad_tail, nonce, own_pq)
            check(f"messages[{index}].plaintext", plaintext.decode() == message["plaintext"])
        except Exception as error:  # noqa: BLE001 - report and count any failure
            failures += 1
            print(f"messages[{index}]: decryption failed: {error!r}")

    if failures:
        print(f"FAIL: {failures} mismatches")
        return 1
    print(f"OK: handshake and {len(v['messages'])} messages re-derived independently")
    return 0


if __name__ == "__main__":
    sys.exit(main())
