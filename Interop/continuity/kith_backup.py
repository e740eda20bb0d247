"""An independent reader of Kith backups (docs/CONTINUITY.md, "Container"), on the `cryptography` package only.

Written from the format description, not from Kith's Swift code: header, key check, STREAM chunks of
ChaCha20-Poly1305, typed length-prefixed records between a manifest and an end record.
"""
import base64
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



STORE_ROW = 0x0030
TABLE_HEADER = 0x0031
MAX_COLUMNS = 64
# Columns a writer leaves out because the reader derives them: table -> (column, source column).
DERIVED = {"messages": ("message_id", "envelope_json")}


def _name(body, pos):
    if pos >= len(body):
        raise BackupRefused("truncated name")
    length = body[pos]
    end = pos + 1 + length
    if end > len(body):
        raise BackupRefused("name runs past the record")
    return body[pos + 1:end].decode("utf-8"), end


def decode_store_rows(records):
    """Decodes the compact store records (table headers 0x0031, rows 0x0030) into [(table, {column: value})].

    A value is None, an int, a str or bytes; a `messages` row gets its derived `message_id`
    (base64url of SHA-256 of `envelope_json`, unpadded)."""
    rows = []
    header = None
    previous = None
    for kind, body in records:
        if kind == TABLE_HEADER:
            table, pos = _name(body, 0)
            if pos >= len(body):
                raise BackupRefused("table header without a column count")
            count = body[pos]
            pos += 1
            if not 1 <= count <= MAX_COLUMNS:
                raise BackupRefused("column count out of bounds")
            names = []
            for _ in range(count):
                name, pos = _name(body, pos)
                names.append(name)
            if pos != len(body) or len(set(names)) != len(names) or "" in names:
                raise BackupRefused("malformed table header")
            if table in DERIVED and (DERIVED[table][0] in names or DERIVED[table][1] not in names):
                raise BackupRefused("a derived column is carried or its source is missing")
            header, previous = (table, names), None
        elif kind == STORE_ROW:
            if header is None:
                raise BackupRefused("store row before any table header")
            table, names = header
            values = []
            pos = 0
            for index in range(len(names)):
                if pos >= len(body):
                    raise BackupRefused("row ends early")
                tag = body[pos]
                pos += 1
                if tag == 0:
                    values.append(None)
                elif tag == 1:
                    if pos + 8 > len(body):
                        raise BackupRefused("row ends inside an integer")
                    values.append(struct.unpack(">q", body[pos:pos + 8])[0])
                    pos += 8
                elif tag in (2, 3):
                    if pos + 4 > len(body):
                        raise BackupRefused("row ends inside a length")
                    (length,) = struct.unpack(">I", body[pos:pos + 4])
                    pos += 4
                    if pos + length > len(body):
                        raise BackupRefused("value runs past the row")
                    raw = body[pos:pos + length]
                    values.append(raw.decode("utf-8") if tag == 2 else bytes(raw))
                    pos += length
                elif tag == 4:
                    if previous is None:
                        raise BackupRefused("repeat without a previous row")
                    values.append(previous[index])
                else:
                    raise BackupRefused("unknown value tag")
            if pos != len(body):
                raise BackupRefused("trailing bytes in a row")
            previous = values
            columns = dict(zip(names, values))
            if table in DERIVED:
                column, source = DERIVED[table]
                digest = hashlib.sha256(columns[source].encode("utf-8")).digest()
                columns[column] = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
            rows.append((table, columns))
    return rows
