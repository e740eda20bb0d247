#!/usr/bin/env python3
"""`kith tdf` against an independent NanoTDF implementation in Python `cryptography`.

1. Python makes a P-256 key; `kith tdf encrypt --to PUBLIC.pem` writes a NanoTDF; Python decrypts it
   (decrypt_kith_vectors.decrypt) and checks the plaintext; `kith tdf inspect --json` reports the header.
2. Python writes an L1L NanoTDF of its own (GMAC binding, AES-256-GCM 128-bit tag, nonce = 9 zero bytes || IV)
   to a Kith-made key (`kith tdf keygen`, PKCS#8 PEM read by Python); `kith tdf decrypt` opens it.
3. Tampering with the Python file (policy, payload, binding) makes `kith tdf decrypt` fail with no output.
Written for this project from the format facts in docs/TDF.md. Needs $KITH.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

sys.path.insert(0, os.path.dirname(__file__))
from decrypt_kith_vectors import decrypt  # noqa: E402

KITH = os.environ["KITH"]


def kith(*args, stdin=None):
    return subprocess.run([KITH, "tdf", *args], input=stdin, capture_output=True)


def python_nanotdf(recipient_public, plaintext, policy):
    eph = ec.generate_private_key(ec.SECP256R1())
    z = eph.exchange(ec.ECDH(), recipient_public)
    magic = b"L1L"
    dek = HKDF(algorithm=hashes.SHA256(), length=32, salt=hashlib.sha256(magic).digest(), info=b"").derive(z)
    body = b"kas.python.example"
    out = bytearray(magic)
    out += bytes([0x01, len(body)]) + body  # https, no key id
    out += bytes([0x00, 0x05, 0x01])  # P-256 + GMAC binding; AES-256-GCM 128-bit tag; embedded plaintext policy
    out += len(policy).to_bytes(2, "big") + policy
    out += hashlib.sha256(policy).digest()[-8:]
    out += eph.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
    iv = os.urandom(3)
    while iv == bytes(3):
        iv = os.urandom(3)
    sealed = AESGCM(dek).encrypt(bytes(9) + iv, plaintext, None)
    out += (3 + len(sealed)).to_bytes(3, "big") + iv + sealed
    return bytes(out)


def main():
    work = tempfile.mkdtemp(prefix="kith-tdf-")
    # 1. Kith writes, Python reads.
    key = ec.generate_private_key(ec.SECP256R1())
    public_pem = os.path.join(work, "python-public.pem")
    with open(public_pem, "wb") as f:
        f.write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    message = "one-time hello from Kith ✓".encode()
    encrypted = kith("encrypt", "--to", public_pem, "-", stdin=message)
    assert encrypted.returncode == 0, encrypted.stderr.decode()
    scalar = key.private_numbers().private_value.to_bytes(32, "big")
    _, plain = decrypt(encrypted.stdout, scalar)
    assert plain == message, "Python decrypts what kith tdf encrypt wrote"
    path = os.path.join(work, "kith.ntdf")
    with open(path, "wb") as f:
        f.write(encrypted.stdout)
    inspected = kith("inspect", "--json", path)
    assert inspected.returncode == 0, inspected.stderr.decode()
    fields = json.loads(inspected.stdout)
    assert fields["magic"] == "4c314c" and fields["curve"] == "secp256r1" and fields["tag_bits"] == 128, fields
    assert fields["payload_length"] == 3 + len(message) + 16, fields
    print("ok kith encrypt -> python decrypt; inspect", fields["version"])

    # 2. Python writes, Kith reads (the key made by kith tdf keygen).
    private_pem = os.path.join(work, "kith-private.pem")
    made = kith("keygen", "--private-key", private_pem)
    assert made.returncode == 0, made.stderr.decode()
    assert oct(os.stat(private_pem).st_mode & 0o777) == "0o600", "the private key file is private"
    recipient = serialization.load_pem_public_key(made.stdout)
    assert serialization.load_pem_private_key(open(private_pem, "rb").read(), None).public_key().public_numbers() == recipient.public_numbers()
    policy = b'{"body":{"dataAttributes":[],"dissem":[]}}'
    blob = python_nanotdf(recipient, b"hello from Python", policy)
    theirs = os.path.join(work, "python.ntdf")
    with open(theirs, "wb") as f:
        f.write(blob)
    opened = kith("decrypt", "--key", private_pem, theirs)
    assert opened.returncode == 0 and opened.stdout == b"hello from Python", opened.stderr.decode()
    print("ok python encrypt -> kith decrypt")

    # 3. Tampered copies are refused, and nothing is written.
    policy_at = blob.index(policy)
    for name, index in [("policy", policy_at + 2), ("binding", policy_at + len(policy)), ("payload", len(blob) - 20), ("tag", len(blob) - 1)]:
        bad = bytearray(blob)
        bad[index] ^= 0x01
        with open(theirs, "wb") as f:
            f.write(bad)
        refused = kith("decrypt", "--key", private_pem, theirs)
        assert refused.returncode == 2 and refused.stdout == b"", (name, refused.returncode, refused.stdout)
    print("ok tampered policy, binding, payload and tag refused")


if __name__ == "__main__":
    main()
