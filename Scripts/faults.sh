#!/usr/bin/env bash
# The fault matrix (`make faults`): every row in its long form (AUTHVAULT_FAULTS_FULL=1: many SIGKILL rounds, 50
# processes), against the real peers the tests start, then the table and the "tokens lost" line.
#   Scripts/faults.sh            SWIFT=swift
# Each row is a test that records itself (Tests/AuthVaultCLITests/FaultMatrix.swift) into the report this script
# names. Fails when a test fails, a row fails, a token was lost, a secret leaked, or a row the matrix promises is
# missing. The test output is kept in .build/faults.log.
set -uo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
suites='ConcurrentRefreshTests/(aTransientFault|aStall)|FileAndKeyFaultTests|RotatingSessionFaultTests|SecretServiceFaultTests|FaultSweepTests'
# One pattern per scenario of the matrix (issue 12, item 3): each must match at least one row.
required=('Cognito 500' 'throttling' 'HTTP 429' 'connection reset' 'stall past the deadline' 'truncated body' 'HTML page'
          'JWKS unreachable' 'D-Bus gone' 'locked collection' 'hung Secret Service' 'full disk' 'SIGKILL at random moments'
          'SIGKILL of the agent' 'processes at once on an expired rotating session' 'config file truncated'
          'vault file truncated' 'clock set' 'SIGQUIT mid-refresh')

report=$(mktemp)
trap 'rm -f "$report"' EXIT
mkdir -p .build
"$swift" build --build-tests --disable-local-rpath 2>&1 | grep -E "error|warning: " || true
AUTHVAULT_FAULT_REPORT=$report AUTHVAULT_FAULTS_FULL=1 PATH="$PWD/.venv/bin:$PATH" \
    "$swift" test --skip-build --no-parallel --filter "$suites" > .build/faults.log 2>&1
tests=$?

{
    printf 'result\tscenario\texpected\tobserved\tlost\tleaks\n'
    sort -t $'\t' -k2,2 "$report"
} | column -t -s $'\t'

failed=$(awk -F'\t' '$1 != "pass"' "$report" | wc -l)
lost=$(awk -F'\t' '{ sum += $5 } END { print sum + 0 }' "$report")
leaks=$(awk -F'\t' '{ sum += $6 } END { print sum + 0 }' "$report")
missing=()
for pattern in "${required[@]}"; do
    cut -f2 "$report" | grep -qF -- "$pattern" || missing+=("$pattern")
done

echo
echo "rows: $(wc -l < "$report"), failed: $failed, secrets leaked: $leaks, core pattern: $(cat /proc/sys/kernel/core_pattern)"
if ((${#missing[@]})); then
    printf 'rows missing (skipped or not run): %s\n' "${missing[@]}"
fi
grep -a -E "Test run with|^✘ Test .* failed after|skipped" .build/faults.log | tail -20
echo "tokens lost: $lost"
((tests == 0 && failed == 0 && lost == 0 && leaks == 0 && ${#missing[@]} == 0))
