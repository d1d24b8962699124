#!/usr/bin/env bash
# Fuzzes every parser with libFuzzer (`make fuzz`; `--smoke` for the short run of `make test`).
#   Scripts/fuzz.sh [--smoke] [fuzz-TARGET ...]    FUZZ_SECONDS per target (default 60), FUZZ_SMOKE_SECONDS with --smoke (3)
# Builds the Fuzz/ targets with the toolchain's -sanitize=fuzzer,address in their own scratch path (Package.swift
# declares them only under AUTHVAULT_FUZZ), runs each on a fresh copy of its seed corpus (Fuzz/Corpus/TARGET) with
# its dictionary, and fails on a crash, a leak, a time-out, or a target whose coverage never grew past its seeds.
# Findings land in .build/fuzz-artifacts/TARGET; logs in .build/fuzz-logs.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
if [[ ${1:-} == --smoke ]]; then
    seconds=${FUZZ_SMOKE_SECONDS:-3}
    shift
fi
all_targets=(fuzz-jwt fuzz-jwt-verifier fuzz-jwks fuzz-cognito-response fuzz-oauth-response fuzz-discovery fuzz-device-authorization
             fuzz-loopback-request fuzz-agent-request fuzz-agent-reply fuzz-config fuzz-vault-record fuzz-vault-key-file
             fuzz-git-credential fuzz-docker-helper fuzz-vault-helper fuzz-kubectl-exec-info)
targets=("${@:-${all_targets[@]}}")
swift=${SWIFT:-swift}
build=(env AUTHVAULT_FUZZ=1 "$swift" build --scratch-path .build/fuzz -c release -Xswiftc -sanitize=fuzzer,address)

dictionary() {
    case $1 in
        fuzz-loopback-request) echo Fuzz/Dictionaries/http.dict ;;
        fuzz-git-credential | fuzz-docker-helper | fuzz-vault-helper) echo Fuzz/Dictionaries/helper.dict ;;
        fuzz-vault-record | fuzz-vault-key-file) echo Fuzz/Dictionaries/vault.dict ;;
        fuzz-jwt | fuzz-jwt-verifier) echo Fuzz/Dictionaries/jwt.dict ;;
        *) echo Fuzz/Dictionaries/json.dict ;;
    esac
}

echo "Building ${#targets[@]} fuzz targets (.build/fuzz)..."
for target in "${targets[@]}"; do
    # One product at a time: a plain build would also build the benchmark and the example.
    if ! "${build[@]}" --product "$target" >.build/fuzz-build.log 2>&1; then
        grep -E "error" .build/fuzz-build.log >&2 || cat .build/fuzz-build.log >&2
        exit 1
    fi
done
bin=$("${build[@]}" --show-bin-path)

rm -rf .build/fuzz-tmp && mkdir -p .build/fuzz-logs .build/fuzz-tmp
failed=0
printf '%-24s %12s %8s %6s  %s\n' target executions cov new result
for target in "${targets[@]}"; do
    corpus=.build/fuzz-corpus/$target artifacts=.build/fuzz-artifacts/$target/ log=.build/fuzz-logs/$target.log
    rm -rf "$corpus" && mkdir -p "$corpus" "$artifacts"
    cp Fuzz/Corpus/"$target"/* "$corpus"/
    status=0
    TMPDIR=$PWD/.build/fuzz-tmp ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/Fuzz/lsan.supp "$bin/$target" "$corpus" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        -dict="$(dictionary "$target")" -artifact_prefix="$artifacts" >"$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    new=$(sed -n 's/^stat::new_units_added: *//p' "$log")
    seed_cov=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$log" | head -1)
    final_cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' "$log" | tail -1)
    if ((status != 0)); then
        result="FAILED: $(grep -m1 -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-z-]+( [a-z-]+)?' "$log" || echo "exit $status") (see $log, $artifacts)"
        failed=1
    elif [[ -z $seed_cov || -z $final_cov ]] || ((final_cov <= seed_cov)); then
        result="FAILED: no coverage past the seeds (${seed_cov:-?} -> ${final_cov:-?}; see $log)"
        failed=1
    else
        result=ok
    fi
    printf '%-24s %12s %8s %6s  %s\n' "$target" "${executions:-?}" "${final_cov:-?}" "${new:-?}" "$result"
done
exit $failed
