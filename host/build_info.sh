#!/bin/sh
# Prints build_info.c: the build's git commit and whether tracked files
# differed from it (host/out/replay.h), results/ and docs/ aside: the
# tools write those (stored results, the report made from them), and a
# regeneration rewrites them before it builds. Outside a git tree:
# "unknown", clean.
cd "$(dirname "$0")/.." || exit 1
commit=$(git rev-parse HEAD 2>/dev/null) || commit=unknown
dirty=0
[ "$commit" = unknown ] ||
  [ -z "$(git status --porcelain --untracked-files=no -- . ':(exclude)results' ':(exclude)docs' 2>/dev/null)" ] ||
  dirty=1
printf '/* made by host/build_info.sh */\nconst char build_commit[] = "%s";\nconst int build_dirty = %d;\n' "$commit" "$dirty"
