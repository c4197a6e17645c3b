#!/usr/bin/env bash
# Prints files changed against the base branch with added/removed line counts.
set -euo pipefail
base="${1:-main}"
git diff --numstat "$base"...HEAD | awk '{ printf "%-60s +%s -%s\n", $3, $1, $2 }'
