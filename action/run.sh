#!/usr/bin/env bash
# The one step of action.yml: runs `skillflow validate` on the inputs (SKILLFLOW_* variables), prints the problems in
# the format asked for, writes the job summary (problems table + listing budget) and the outputs, and fails per fail-on.
# The CLI is the action folder's own build (dist/cli.js) when it has one, else the npm package of the action's version
# (SKILLFLOW_CLI_PACKAGE overrides the package spec, e.g. a tarball).
set -euo pipefail

action_path="${SKILLFLOW_ACTION_PATH:?}"
fail_on="${SKILLFLOW_FAIL_ON:-error}"
case "$fail_on" in error|warning|never) ;; *) echo "::error::fail-on must be error, warning or never (got '$fail_on')"; exit 2 ;; esac
format="${SKILLFLOW_FORMAT:-github}"
case "$format" in github|text|json|sarif|markdown) ;; *) echo "::error::format must be github, text, json, sarif or markdown (got '$format')"; exit 2 ;; esac

cli=(node "$action_path/dist/cli.js")
if [ ! -f "$action_path/dist/cli.js" ]; then
  prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/skillflow-cli"
  version="$(node -p 'require(process.argv[1]).version' "$action_path/package.json")"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "${SKILLFLOW_CLI_PACKAGE:-skillflow@$version}" >&2
  cli=(node "$prefix/node_modules/skillflow/dist/cli.js")
fi

read -r -a paths <<< "${SKILLFLOW_PATH:-.}"
[ "${#paths[@]}" -gt 0 ] || paths=(.)
args=()
[ -z "${SKILLFLOW_PROFILE:-}" ] || args+=(--profile "$SKILLFLOW_PROFILE")
[ -z "${SKILLFLOW_CONFIG:-}" ] || args+=(--config "$SKILLFLOW_CONFIG")

# validate: exit 0 clean, 1 errors found, 2 bad usage or unreadable path (the step fails with its message).
validate() {
  local status=0
  "${cli[@]}" validate "${paths[@]}" "${args[@]}" "$@" || status=$?
  [ "$status" -le 1 ] || exit "$status"
}

json="$(validate --format json)"
counts="$(node -e 'const s = JSON.parse(require("fs").readFileSync(0, "utf8")).summary; console.log(`${s.errors} ${s.warnings}`)' <<< "$json")"
read -r errors warnings <<< "$counts"

validate --format "$format"

sarif=""
if [ -n "${SKILLFLOW_SARIF_FILE:-}" ]; then
  sarif="$SKILLFLOW_SARIF_FILE"
  mkdir -p "$(dirname "$sarif")"
  validate --format sarif > "$sarif"
fi

{
  echo "errors=$errors"
  echo "warnings=$warnings"
  echo "sarif-file=$sarif"
} >> "${GITHUB_OUTPUT:?}"

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    validate --format markdown
    echo
    # The listing is per folder where Claude Code starts: the first path when it is a folder.
    if [ -d "${paths[0]}" ]; then "${cli[@]}" listing "${paths[0]}" --format markdown || true; fi
  } >> "$GITHUB_STEP_SUMMARY"
fi

case "$fail_on" in
  error) [ "$errors" -eq 0 ] || { echo "Skillflow: $errors error(s) (fail-on: error)"; exit 1; } ;;
  warning) [ $((errors + warnings)) -eq 0 ] || { echo "Skillflow: $errors error(s), $warnings warning(s) (fail-on: warning)"; exit 1; } ;;
esac
