"""An independent reader of Kith backups (docs/CONTINUITY.md, "Container"), on the `cryptography` package only.

Written from the format description, not from Kith's Swift code: header, key check, STREAM chunks of
ChaCha20-Poly1305, typed length-prefixed records between a manifest and an end record.
"""
import hashlib
import json
import struct
from hmac import compare_digest

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

MAGIC = b"KITHBAK1"
HEADER_SIZE = 68
CHECK_SIZE = 32
CHUNK = 65536
TAG = 16
MAX_RECORD = 16 * 1024 * 1024
MAX_MANIFEST = 64 * 1024
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class BackupRefused(Exception):
    pass


def parse_recovery_key(text):
    table = {"O": "0", "I": "1", "L": "1"}
    chars = [table.get(c, c) for c in text.upper() if c not in " -\t\r\n"]
    if len(chars) != 64 or any(c not in ALPHABET for c in chars):
        raise BackupRefused("recovery key is not 64 characters of the alphabet")
    bits = "".join(format(ALPHABET.index(c), "05b") for c in chars)
    raw = bytes(int(bits[i:i + 8], 2) for i in range(0, 320, 8))
    key, checksum = raw[:32], raw[32:]
    if hashlib.sha256(key).digest()[:8] != checksum:
        raise BackupRefused("recovery key checksum mismatch")
    return key


def hkdf(material, salt, info):
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(material)


def open_backup(data, recovery_key=None, passphrase=None):
    """Returns (manifest dict, [(kind, body)]) or raises BackupRefused."""
    if len(data) < HEADER_SIZE + CHECK_SIZE or data[:8] != MAGIC:
        raise BackupRefused("not a Kith backup")
    header = data[:HEADER_SIZE]
    version, kdf, log2n, r, p = header[8], header[9], header[10], header[11], header[12]
    if version != 1:
        raise BackupRefused("unknown version")
    salt = header[13:45]
    file_id = header[45:61]
    prefix = header[61:68]
    if kdf == 1:
        if (log2n, r, p) != (0, 0, 0) or recovery_key is None:
            raise BackupRefused("recovery-key header mismatch")
        material = recovery_key
    elif kdf == 2:
        if not (15 <= log2n <= 20 and 8 <= r <= 16 and 1 <= p <= 4) or 128 * r * (1 << log2n) * p > 256 << 20:
            raise BackupRefused("scrypt parameters out of bounds")
        if passphrase is None:
            raise BackupRefused("passphrase needed")
        material = Scrypt(salt=salt, length=32, n=1 << log2n, r=r, p=p).derive(passphrase.encode())
    else:
        raise BackupRefused("unknown kdf")
    key = hkdf(material, salt, b"kith backup v1 payload key")
    check = hkdf(key, salt, b"kith backup v1 key check")
    if not compare_digest(check, data[HEADER_SIZE:HEADER_SIZE + CHECK_SIZE]):
        raise BackupRefused("wrong key")
    aead = ChaCha20Poly1305(key)
    body = data[HEADER_SIZE + CHECK_SIZE:]
    plain = bytearray()
    counter = 0
    offset = 0
    while True:
        remaining = len(body) - offset
        last = remaining <= CHUNK + TAG
        sealed = body[offset:offset + (remaining if last else CHUNK + TAG)]
        nonce = prefix + struct.pack(">I", counter) + (b"\x01" if last else b"\x00")
        try:
            plain += aead.decrypt(nonce, sealed, header)
        except Exception:
            raise BackupRefused(f"chunk {counter} does not authenticate")
        offset += len(sealed)
        counter += 1
        if last:
            break
    records = []
    pos = 0
    while pos < len(plain):
        if len(plain) - pos < 6:
            raise BackupRefused("truncated record header")
        kind, length = struct.unpack(">HI", plain[pos:pos + 6])
        if length > (MAX_MANIFEST if kind == 1 else MAX_RECORD) or pos + 6 + length > len(plain):
            raise BackupRefused("record length out of bounds")
        records.append((kind, bytes(plain[pos + 6:pos + 6 + length])))
        pos += 6 + length
    if not records or records[0][0] != 1:
        raise BackupRefused("first record is not the manifest")
    if records[-1][0] != 0xFFFF or len(records[-1][1]) != 8:
        raise BackupRefused("last record is not the end record")
    if struct.unpack(">Q", records[-1][1])[0] != len(records) - 2:
        raise BackupRefused("end record count mismatch")
    if any(k in (1, 0xFFFF) for k, _ in records[1:-1]):
        raise BackupRefused("manifest or end in the middle")
    manifest = json.loads(records[0][1])
    if manifest["backup_id"] != file_id.hex():
        raise BackupRefused("manifest names another file")
    return manifest, records[1:-1]

