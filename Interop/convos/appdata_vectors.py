#!/usr/bin/env python3
"""Convos appData, written a second time with Google's protobuf package (PyPI) and Python's zlib.

An implementation independent of Kith's (SwiftProtobuf + system zlib): the schema is declared here as descriptors,
straight from the published field numbers (xmtplabs/convos-ios ConvosAppData/Proto/conversation_custom_metadata.proto), so no protoc is needed.

  appdata_vectors.py generate OUT.json   writes the cases Kith's tests read (KithGroupsTests/PythonAppDataVectorTests)
  appdata_vectors.py check OUT.json FIXTURE
                                         regenerates the cases and compares them with OUT.json, then decodes Convos'
                                         zlib-wrapped fixture with this decoder and checks its published values

Descriptors are proto2 so that "optional" has presence without proto3's synthetic oneofs; the wire format of every
field used here is the same as Convos' proto3 schema.
"""
import base64
import json
import sys
import zlib

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto


def _message(file, name, fields):
    message = file.message_type.add(name=name)
    for number, field_name, kind, label, type_name in fields:
        field = message.field.add(name=field_name, number=number, type=kind, label=label)
        if type_name:
            field.type_name = type_name


def _schema():
    """ConversationCustomMetadata and friends; FutureMetadata adds fields 9 and 10, which Kith's schema lacks."""
    file = descriptor_pb2.FileDescriptorProto(name="convos_check.proto", package="convos.check", syntax="proto2")
    opt, rep = F.LABEL_OPTIONAL, F.LABEL_REPEATED
    _message(file, "EncryptedImageRef", [
        (1, "url", F.TYPE_STRING, opt, None), (2, "salt", F.TYPE_BYTES, opt, None), (3, "nonce", F.TYPE_BYTES, opt, None)])
    _message(file, "AgentDmInfo", [(1, "originConversationId", F.TYPE_BYTES, opt, None)])
    _message(file, "ConversationProfile", [
        (1, "inboxId", F.TYPE_BYTES, opt, None), (2, "name", F.TYPE_STRING, opt, None),
        (3, "image", F.TYPE_STRING, opt, None),
        (4, "encryptedImage", F.TYPE_MESSAGE, opt, ".convos.check.EncryptedImageRef"),
        (5, "connections", F.TYPE_STRING, opt, None)])
    common = [
        (1, "tag", F.TYPE_STRING, opt, None),
        (2, "profiles", F.TYPE_MESSAGE, rep, ".convos.check.ConversationProfile"),
        (3, "expiresAtUnix", F.TYPE_SFIXED64, opt, None),
        (4, "imageEncryptionKey", F.TYPE_BYTES, opt, None),
        (5, "encryptedGroupImage", F.TYPE_MESSAGE, opt, ".convos.check.EncryptedImageRef"),
        (6, "emoji", F.TYPE_STRING, opt, None),
        (8, "agentDm", F.TYPE_MESSAGE, opt, ".convos.check.AgentDmInfo")]
    _message(file, "ConversationCustomMetadata", common)
    _message(file, "FutureMetadata", common + [
        (9, "participationMode", F.TYPE_INT32, opt, None), (10, "spaceUrl", F.TYPE_STRING, opt, None)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName("convos.check." + name))
            for name in ("ConversationCustomMetadata", "FutureMetadata")}


MESSAGES = _schema()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def deflate(data, wrapped):
    compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


def encode(protobuf, zlib_wrapped=False):
    """Convos' writer: frame only records over 100 bytes, and only when the frame is smaller."""
    if len(protobuf) > 100:
        frame = b"\x1f" + len(protobuf).to_bytes(4, "big") + deflate(protobuf, zlib_wrapped)
        if len(frame) < len(protobuf):
            return b64url(frame), True
    return b64url(protobuf), False


def decode(text):
    """Convos' reader: raw DEFLATE first, then zlib-wrapped; exact declared length."""
    frame = b64url_decode(text)
    if not frame or frame[0] != 0x1F:
        return frame
    declared = int.from_bytes(frame[1:5], "big")
    body = frame[5:]
    assert 0 < declared <= 10 * 1024 * 1024 and declared <= 100 * len(body), "declared length out of bounds"
    for wbits in (-zlib.MAX_WBITS, zlib.MAX_WBITS):
        try:
            inflater = zlib.decompressobj(wbits)
            out = inflater.decompress(body, declared + 1)
            if inflater.eof and not inflater.unused_data and len(out) == declared:
                return out
        except zlib.error:
            continue
    raise ValueError("body is neither raw nor zlib DEFLATE of the declared length")


def member(seed):
    return bytes([seed]) * 32


def cases():
    """(name, message, zlib_wrapped)"""
    Meta, Future = MESSAGES["ConversationCustomMetadata"], MESSAGES["FutureMetadata"]

    small = Meta(tag="Abc123XYZ0")
    small.profiles.add(inboxId=member(0xA1), name="Alice")
    yield "small-uncompressed", small, False

    full = Meta(tag="Full000Tag", expiresAtUnix=-5, emoji="🎭", imageEncryptionKey=bytes(range(32)))
    full.encryptedGroupImage.url = "https://assets.example/group.bin"
    full.encryptedGroupImage.salt = b"\x01" * 32
    full.encryptedGroupImage.nonce = b"\x02" * 12
    for seed, name in ((0xA1, "Alice"), (0xB0, "Bob"), (0xC0, "Carol")):
        full.profiles.add(inboxId=member(seed), name=name, image=f"https://assets.example/avatars/{name.lower()}.png")
    carol = full.profiles[2]
    carol.encryptedImage.url = "https://assets.example/carol.bin"
    carol.encryptedImage.salt = b"\x03" * 32
    carol.encryptedImage.nonce = b"\x04" * 12
    carol.connections = '{"grants":[]}'
    full.agentDm.originConversationId = b"\x09" * 16
    yield "all-fields-compressed", full, False
    yield "all-fields-zlib-wrapped", full, True

    future = Future(tag="Futur3Tag0", participationMode=2, spaceUrl="https://space.example/room")
    future.profiles.add(inboxId=member(0xD0), name="Dana")
    yield "unknown-fields-9-and-10", future, False

    yield "empty", Meta(), False


def expected_fields(message):
    return {
        "tag": message.tag,
        "profiles": [{"id_hex": p.inboxId.hex(), "name": p.name if p.HasField("name") else None,
                      "image": p.image if p.HasField("image") else None} for p in message.profiles],
        "expiresAtUnix": message.expiresAtUnix if message.HasField("expiresAtUnix") else None,
        "emoji": message.emoji if message.HasField("emoji") else None,
    }


def generate():
    out = []
    for name, message, wrapped in cases():
        protobuf = message.SerializeToString(deterministic=True)
        text, compressed = encode(protobuf, wrapped)
        assert decode(text) == protobuf
        out.append({"name": name, "appData": text, "compressed": compressed, "zlibWrapped": wrapped and compressed,
                    "protobuf_hex": protobuf.hex(), "expected": expected_fields(message)})
    return {
        "generator": "Interop/convos/appdata_vectors.py (protobuf from PyPI, Python zlib); independent of Kith",
        "cases": out,
    }


def check(path, fixture_path):
    with open(path, encoding="utf-8") as handle:
        committed = json.load(handle)
    fresh = generate()
    for old, new in zip(committed["cases"], fresh["cases"], strict=True):
        # The compressed bytes depend on the zlib build; the record and the framing decision must not.
        for key in ("name", "compressed", "zlibWrapped", "protobuf_hex", "expected"):
            assert old[key] == new[key], f"{old['name']}: {key} differs from a fresh run"
        assert decode(old["appData"]).hex() == old["protobuf_hex"], f"{old['name']}: committed appData does not decode"
    with open(fixture_path, encoding="utf-8") as handle:
        fixture = handle.read().strip()
    parsed = MESSAGES["ConversationCustomMetadata"].FromString(decode(fixture))
    assert parsed.tag == "zlibFixtureTag" and parsed.emoji == "🎭", "Convos fixture: tag or emoji"
    assert [p.name for p in parsed.profiles] == ["Agent", "SecondMember"], "Convos fixture: profiles"
    assert parsed.profiles[0].image == "https://example.com/agent-avatar-image.png", "Convos fixture: image"
    print(f"convos appData: {len(committed['cases'])} vectors reproduced, Convos fixture decoded independently")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        with open(sys.argv[2], "w", encoding="utf-8") as handle:
            json.dump(generate(), handle, indent=2, ensure_ascii=False)
            handle.write("\n")
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
