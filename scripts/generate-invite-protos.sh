#!/usr/bin/env bash
# Regenerates the Swift code for Protos/convos/invite.proto into Sources/KithInvites/Generated/.
# Run it by hand after editing the schema and commit the result; builds and CI never run it.
#
# Needs protoc (Debian: apt-get install protobuf-compiler) and protoc-gen-swift 1.39.0: the plugin that
# scripts/generate-protos.sh builds into .build-protoc/, or any other build of it named by PROTOC_GEN_SWIFT.
set -euo pipefail
cd "$(dirname "$0")/.."

plugin="${PROTOC_GEN_SWIFT:-.build-protoc/scratch/release/protoc-gen-swift}"
out=Sources/KithInvites/Generated

command -v protoc >/dev/null 2>&1 || { echo "error: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }
[ -x "$plugin" ] || { echo "error: $plugin missing: run scripts/generate-protos.sh once, or set PROTOC_GEN_SWIFT" >&2; exit 1; }

mkdir -p "$out"
rm -f "$out"/*.pb.swift
protoc \
  --plugin=protoc-gen-swift="$plugin" \
  --proto_path=Protos \
  --swift_opt=Visibility=Internal \
  --swift_opt=FileNaming=DropPath \
  --swift_out="$out" \
  convos/invite.proto
echo "generated: $(ls "$out")"
