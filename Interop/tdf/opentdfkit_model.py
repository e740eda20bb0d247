#!/usr/bin/env python3
"""An independent model of OpenTDFKit's NanoTDF (the Swift library of the Arkavo app), in Python `cryptography`.

Written for this project from OpenTDFKit's documented behaviour (docs/TDF.md "Dialects", the facts of
Tests/Vectors/real-clients/real-clients.md: arkavo-org/OpenTDFKit d8ffeff, the revision the Arkavo app pins, and its head 30d5919):

- writer at d8ffeff: "L1M" header; KAS locator protocol byte 0x0F (its shared-resource-directory value 0xFF masked to
  4 bits) with the recipient's base58 profile id; curve byte 0x00 and the recipient's compressed P-256 key; ECC mode 0x00
  (GMAC binding); payload config 0x05 (AES-256-GCM, 16-byte tag); policy type 0x01, u16 length, JSON; the binding is the
  first 8 bytes of an AES-GCM tag under the payload key with an empty plaintext and (u16 length || policy) as
  additional data, under a random nonce that is not stored; the 33-byte ephemeral key; u24 payload length, 3-byte IV,
  ciphertext, 16-byte tag. HKDF-SHA256(ECDH x, salt = SHA-256("L1M"), info = "", 32). GCM nonce = IV || 9 zero bytes.
- writer at its head: the same with an "L1L" header (no recipient key), salt SHA-256("L1L") and an all-zero binding nonce.
- the app's reader (d8ffeff): refuses locator protocols other than 0-3, needs an "L1M" header whose recipient key its
  key store holds, derives with salt SHA-256("L1L"), never checks the binding, needs a 16-byte tag and a non-empty
  ciphertext.

Usage:
  opentdfkit_model.py write OUT.json      write TestVectors/nanotdf/arkavo-app-files-v1.json (files as OpenTDFKit writes)
  opentdfkit_model.py check APP.json KITH.json
      regenerate APP.json byte for byte; open every file of KITH.json (Kith's --dialect arkavo output) with the model
      of the app's reader; with $KITH set, also drive `kith tdf encrypt|decrypt --dialect arkavo` both ways.
"""
import base64
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

BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
POLICY = b'{"attributes":[],"dissem":["arkavo"]}'


class Refused(Exception):
    """What the app's reader would refuse (its parser returns nil or throws)."""


def base58(data):
    number = int.from_bytes(data, "big")
    out = ""
    while number:
        number, digit = divmod(number, 58)
        out = BASE58[digit] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def scalar_key(byte):
    return ec.derive_private_key(int.from_bytes(bytes([byte]) * 31 + b"\x01", "big"), ec.SECP256R1())


def compressed(public_key):
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)


def dek(private_key, public_key, magic):
    shared = private_key.exchange(ec.ECDH(), public_key)
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=hashlib.sha256(magic).digest(), info=b"").derive(shared)


def gmac8(key, nonce, policy_wire):
    return AESGCM(key).encrypt(nonce, b"", policy_wire)[:8]


def write_opentdfkit(revision, recipient_public, ephemeral, iv, binding_nonce, locator, plaintext, policy=POLICY):
    """A NanoTDF as OpenTDFKit's createNanoTDF writes it at `revision` ("d8ffeff" or "head")."""
    magic = b"L1M" if revision == "d8ffeff" else b"L1L"
    key = dek(ephemeral, recipient_public, magic)
    policy_wire = len(policy).to_bytes(2, "big") + policy
    out = bytearray(magic) + locator
    if magic == b"L1M":
        out += b"\x00" + compressed(recipient_public)
    out += b"\x00\x05\x01" + policy_wire + gmac8(key, binding_nonce, policy_wire)
    out += compressed(ephemeral.public_key())
    sealed = AESGCM(key).encrypt(iv + bytes(9), plaintext, None)
    out += (3 + len(sealed)).to_bytes(3, "big") + iv + sealed
    return bytes(out), key


def srd_locator(profile_id):
    body = base58(profile_id).encode()
    return bytes([0x0F, len(body)]) + body


class Reader:
    """A bounded cursor over the bytes, refusing as the app's BinaryParser does."""

    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, n):
        if n <= 0 or self.at + n > len(self.data):
            raise Refused("truncated")
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def byte(self):
        return self.take(1)[0]

    def locator(self):
        proto = self.byte()
        if proto & 0x0F not in (0, 1, 2, 3):
            raise Refused("locator protocol 0x%x" % (proto & 0x0F))
        body = self.take(self.byte())
        body.decode("utf-8")  # the app's parser needs UTF-8
        size = {0: 0, 1: 2, 2: 8, 3: 32}.get(proto >> 4, 0)
        if size:
            self.take(size)


def parse(data, app_reader):
    """Header fields; `app_reader` applies the d8ffeff reader's restrictions (else OpenTDFKit's general layout)."""
    r = Reader(data)
    if r.take(2) != b"L1":
        raise Refused("magic")
    version = r.byte()
    if version not in (0x4C, 0x4D) or (app_reader and version != 0x4D):
        raise Refused("version 0x%x" % version)
    locator_at = r.at
    if app_reader:
        r.locator()
    else:  # a general model also reads OpenTDFKit's own 0x0F locator
        proto = r.byte()
        r.take(r.byte())
        size = {0: 0, 1: 2, 2: 8, 3: 32}.get(proto >> 4, 0)
        if size:
            r.take(size)
    recipient = None
    if version == 0x4D:
        if r.byte() != 0x00:
            raise Refused("curve")
        recipient = r.take(33)
    ecc, config, ptype = r.byte(), r.byte(), r.byte()
    if ecc != 0x00 or config & 0x0F != 0x05 or ptype != 0x01:
        raise Refused("only P-256, GMAC binding, 128-bit tag, plaintext policy are modelled")
    n = int.from_bytes(r.take(2), "big")
    policy = r.take(n)
    binding = r.take(8)
    ephemeral = r.take(33)
    length = int.from_bytes(r.take(3), "big")
    iv = r.take(3)
    body = r.take(length - 3)
    if r.at != len(data):
        raise Refused("trailing bytes")
    if len(body) <= 16:
        raise Refused("the app's reader needs a non-empty ciphertext and a 16-byte tag")
    return {"version": version, "recipient": recipient, "policy": policy, "binding": binding, "ephemeral": ephemeral,
            "iv": iv, "sealed": body, "locator_protocol": data[locator_at]}


def open_as_app(data, key_store):
    """The Arkavo app's reader at d8ffeff: key by the header's recipient key, salt "L1L", binding ignored."""
    fields = parse(data, app_reader=True)
    private = key_store.get(fields["recipient"])
    if private is None:
        raise Refused("recipient key not in the key store")
    eph = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), fields["ephemeral"])
    key = dek(private, eph, b"L1L")
    return AESGCM(key).decrypt(fields["iv"] + bytes(9), fields["sealed"], None), fields, key


def open_general(data, private):
    """OpenTDFKit's files with any salt its writers used; returns plaintext and whether the zero-nonce binding holds."""
    fields = parse(data, app_reader=False)
    eph = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), fields["ephemeral"])
    salts = [b"L1M", b"L1L"] if fields["version"] == 0x4D else [b"L1L"]
    for magic in salts:
        key = dek(private, eph, magic)
        try:
            plain = AESGCM(key).decrypt(fields["iv"] + bytes(9), fields["sealed"], None)
        except Exception:
            continue
        wire = len(fields["policy"]).to_bytes(2, "big") + fields["policy"]
        return plain, gmac8(key, bytes(12), wire) == fields["binding"], magic
    raise Refused("no salt opens the payload")


def app_files():
    recipient = scalar_key(0x31)
    profile_id = hashlib.sha256(b"kith arkavo vector profile").digest()
    cases = [
        ("opentdfkit-d8ffeff-app-writer", "d8ffeff", 0x51, bytes.fromhex("a1b2c3"), bytes.fromhex("0f1e2d3c4b5a69788796a5b4"),
         srd_locator(profile_id), "hello from the Arkavo app (OpenTDFKit d8ffeff)", "unverified"),
        ("opentdfkit-head-writer", "head", 0x52, bytes.fromhex("00ff01"), bytes(12),
         bytes([0x01, 14]) + b"kas.arkavo.net", "hello from OpenTDFKit head", "verified"),
    ]
    vectors = []
    for name, revision, eph_byte, iv, nonce, locator, text, binding in cases:
        blob, key = write_opentdfkit(revision, recipient.public_key(), scalar_key(eph_byte), iv, nonce, locator, text.encode())
        vectors.append({
            "name": name, "opentdfkit_revision": revision,
            "recipient_private_key_scalar_hex": (bytes([0x31]) * 31 + b"\x01").hex(),
            "recipient_public_key_compressed_hex": compressed(recipient.public_key()).hex(),
            "ephemeral_private_key_scalar_hex": (bytes([eph_byte]) * 31 + b"\x01").hex(),
            "kas_locator_hex": locator.hex(),
            "hkdf_salt_hex": hashlib.sha256(b"L1M" if revision == "d8ffeff" else b"L1L").hexdigest(),
            "dek_hex": key.hex(), "gcm_nonce12_hex": (iv + bytes(9)).hex(), "binding_nonce_hex": nonce.hex(),
            "policy_utf8": POLICY.decode(), "plaintext_utf8": text, "expected_binding": binding, "nanotdf_hex": blob.hex(),
        })
    return {"about": "NanoTDF files as OpenTDFKit writes them (the Arkavo app pins d8ffeff), made by the independent model "
                     "Interop/tdf/opentdfkit_model.py; the d8ffeff binding nonce is random upstream and pinned here only "
                     "to make the file reproducible. See docs/TDF.md, Dialects.",
            "vectors": vectors}


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def check_app_files(path):
    with open(path, encoding="utf-8") as handle:
        published = json.load(handle)
    assert canonical(published) == canonical(app_files()), "the model regenerates the published app files"
    for vector in published["vectors"]:
        blob = bytes.fromhex(vector["nanotdf_hex"])
        private = ec.derive_private_key(int(vector["recipient_private_key_scalar_hex"], 16), ec.SECP256R1())
        plain, bound, _ = open_general(blob, private)
        assert plain.decode() == vector["plaintext_utf8"], vector["name"]
        assert bound == (vector["expected_binding"] == "verified"), vector["name"]
        if vector["opentdfkit_revision"] == "d8ffeff":
            try:
                open_as_app(blob, {compressed(private.public_key()): private})
                raise AssertionError("the pinned app's reader must refuse its own writer's file (locator 0x0F)")
            except Refused:
                pass
    print("ok %d OpenTDFKit files regenerated and opened; the app's own reader refuses its writer's file" % len(published["vectors"]))


def check_kith_files(path):
    with open(path, encoding="utf-8") as handle:
        published = json.load(handle)
    for vector in published["vectors"]:
        blob = bytes.fromhex(vector["nanotdf_hex"])
        private = ec.derive_private_key(int(vector["recipient_private_key_scalar_hex"], 16), ec.SECP256R1())
        plain, fields, key = open_as_app(blob, {compressed(private.public_key()): private})
        assert plain.decode() == vector["plaintext_utf8"], vector["name"]
        assert key.hex() == vector["dek_hex"], vector["name"]
        wire = len(fields["policy"]).to_bytes(2, "big") + fields["policy"]
        assert gmac8(key, bytes(12), wire) == fields["binding"], "Kith binds with the zero nonce"
    print("ok %d Kith --dialect arkavo files opened by the model of the app's reader" % len(published["vectors"]))


def check_cli():
    kith_binary = os.environ.get("KITH")
    if not kith_binary:
        print("skip CLI: $KITH not set")
        return
    work = tempfile.mkdtemp(prefix="kith-arkavo-")

    def kith(*args, stdin=None):
        return subprocess.run([kith_binary, "tdf", *args], input=stdin, capture_output=True)

    # Kith writes for the app: the model of the app's reader opens it with the key from its key store.
    app_key = ec.generate_private_key(ec.SECP256R1())
    public_pem = os.path.join(work, "app-public.pem")
    with open(public_pem, "wb") as f:
        f.write(app_key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    message = "to the Arkavo app ✓".encode()
    made = kith("encrypt", "--dialect", "arkavo", "--to", public_pem, "-", stdin=message)
    assert made.returncode == 0, made.stderr.decode()
    plain, fields, _ = open_as_app(made.stdout, {compressed(app_key.public_key()): app_key})
    assert plain == message and fields["version"] == 0x4D and fields["locator_protocol"] == 0x01
    print("ok kith tdf encrypt --dialect arkavo -> the app's reader")

    # The app writes (d8ffeff: L1M, 0x0F locator, random binding nonce), Kith reads and says the binding is unverified.
    private_pem = os.path.join(work, "kith-private.pem")
    keygen = kith("keygen", "--private-key", private_pem)
    assert keygen.returncode == 0, keygen.stderr.decode()
    recipient = serialization.load_pem_public_key(keygen.stdout)
    other_pem = os.path.join(work, "other-private.pem")
    assert kith("keygen", "--private-key", other_pem).returncode == 0
    profile = os.urandom(32)
    for revision, locator, verified in [("d8ffeff", srd_locator(profile), False), ("head", bytes([0x01, 4]) + b"kas1", True)]:
        text = ("from OpenTDFKit %s" % revision).encode()
        blob, _ = write_opentdfkit(revision, recipient, ec.generate_private_key(ec.SECP256R1()), os.urandom(3),
                                   os.urandom(12) if revision == "d8ffeff" else bytes(12), locator, text)
        path = os.path.join(work, revision + ".ntdf")
        with open(path, "wb") as f:
            f.write(blob)
        opened = kith("decrypt", "--dialect", "arkavo", "--key", other_pem, "--key", private_pem, path)
        assert opened.returncode == 0 and opened.stdout == text, opened.stderr.decode()
        warned = b"policy binding not verified" in opened.stderr
        assert warned != verified, (revision, opened.stderr)
        report = kith("decrypt", "--json", "--dialect", "arkavo", "--key", private_pem, path)
        assert report.returncode == 0, report.stderr.decode()
        fields = json.loads(report.stdout)
        assert fields["binding"] == ("verified" if verified else "unverified"), fields
        assert base64.urlsafe_b64decode(fields["plaintext_base64url"] + "=" * (-len(fields["plaintext_base64url"]) % 4)) == text
        if revision == "d8ffeff":
            refused = kith("decrypt", "--dialect", "arkavo", "--key", other_pem, path)
            assert refused.returncode != 0 and refused.stdout == b"" and b"recipient key" in refused.stderr, refused.stderr
        tampered = bytearray(blob)
        tampered[-1] ^= 1
        with open(path, "wb") as f:
            f.write(tampered)
        refused = kith("decrypt", "--dialect", "arkavo", "--key", private_pem, path)
        assert refused.returncode != 0 and refused.stdout == b"", revision
    print("ok OpenTDFKit d8ffeff and head files -> kith tdf decrypt --dialect arkavo (binding reported), tampering refused")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        with open(sys.argv[2], "w", encoding="utf-8") as handle:
            handle.write(json.dumps(app_files(), indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        return
    if len(sys.argv) != 4 or sys.argv[1] != "check":
        sys.exit(__doc__)
    check_app_files(sys.argv[2])
    check_kith_files(sys.argv[3])
    check_cli()


if __name__ == "__main__":
    main()
