#!/usr/bin/env bash
# Runs the linter of the project in the current directory (npm projects only in this demo).
set -euo pipefail
npm run --silent lint -- --format unix "$@"
