#!/usr/bin/env bash
# Regenerates the Swift code for the schemas in Protos/: the Convos / XMTP group metadata into
# Sources/KithGroups/Metadata/Generated/, the Convos invite into Sources/KithInvites/Generated/.
# Run it by hand after editing a .proto file and commit the result; builds and CI never run it.
#
# Needs: protoc (Debian: apt-get install protobuf-compiler) and protoc-gen-swift of the swift-protobuf version
# Package.swift depends on. The plugin is built once from that version into .build-protoc/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.39.0
scratch=.build-protoc
plugin="$scratch/scratch/release/protoc-gen-swift"

command -v protoc >/dev/null 2>&1 || { echo "error: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }

if [ ! -x "$plugin" ]; then
  mkdir -p "$scratch"
  if [ ! -d "$scratch/swift-protobuf" ]; then
    # The package manager's copy of swift-protobuf, or GitHub when there is none.
    source_repo=https://github.com/apple/swift-protobuf.git
    [ -d /opt/swift-packages/apple/swift-protobuf.git ] && source_repo=/opt/swift-packages/apple/swift-protobuf.git
    git clone -q --branch "$version" "$source_repo" "$scratch/swift-protobuf"
  fi
  (cd "$scratch/swift-protobuf" && swift build -c release --product protoc-gen-swift --scratch-path ../scratch)
fi

# generate OUTPUT_FOLDER SCHEMA...: one module's generated code, replaced whole.
generate() {
  local out=$1
  shift
  mkdir -p "$out"
  rm -f "$out"/*.pb.swift
  protoc \
    --plugin=protoc-gen-swift="$plugin" \
    --proto_path=Protos \
    --swift_opt=Visibility=Internal \
    --swift_opt=FileNaming=DropPath \
    --swift_out="$out" \
    "$@"
  echo "generated in $out: $(ls "$out")"
}

generate Sources/KithGroups/Metadata/Generated convos/conversation_custom_metadata.proto xmtp/group_mutable_metadata.proto
generate Sources/KithInvites/Generated convos/invite.proto
