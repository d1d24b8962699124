#!/usr/bin/env bash
# The whole test suite under ThreadSanitizer and AddressSanitizer (`make sanitize`), each build in its own scratch
# path (.build/thread, .build/address), the `authvault` binary the end-to-end tests run included.
#   Scripts/sanitize.sh [thread|address ...]          SWIFT=swift, SANITIZE_FILTER=REGEX (only the tests it matches)
# Reports go to .build/sanitizer-reports/SANITIZER.PID (log_path), from the test runner and from every authvault
# process it starts (the tests pass TSAN_OPTIONS/ASAN_OPTIONS/LSAN_OPTIONS on to them), so a report in a child is
# counted even when its test only looks at the exit status. Suppressions (Scripts/sanitizers/*.supp) hold only the
# toolchain's and system libraries' own reports, each with the reason. Prints a table; fails on any report or any
# failed test.
set -uo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
sanitizers=("${@:-thread address}")
read -r -a sanitizers <<< "${sanitizers[*]}"
supp=$PWD/Scripts/sanitizers
reports=$PWD/.build/sanitizer-reports
mkdir -p "$reports"
# Writable by every user (sticky, like /tmp): ContainerAgentTests runs authvault as another user (65534), whose
# runtime must be able to write its report; otherwise it dies on "Can't open file" before doing its work.
chmod 1777 "$reports"
# disable_coredump=0: the sanitizers' runtimes otherwise set the core-size limit to 0 at start-up, and `exec` must
# hand its command the limit the caller had (ChildProcessSecretTests); handle_segv=0: a SIGSEGV sent from outside
# must take the kernel's default action (CoreDumpTests), not the runtime's report-and-exit. The toolchain's symbolizer by path: the
# authvault processes run with the tests' own PATH, and a leak report must be symbolized for the suppressions
# (which name functions and libraries) to match it.
symbolizer=$(dirname "$(command -v "$swift")")/llvm-symbolizer
export TSAN_OPTIONS="suppressions=$supp/thread.supp log_path=$reports/thread halt_on_error=0 second_deadlock_stack=1 disable_coredump=0 handle_segv=0 external_symbolizer_path=$symbolizer"
export ASAN_OPTIONS="log_path=$reports/address detect_leaks=1 detect_stack_use_after_return=0 disable_coredump=0 handle_segv=0 external_symbolizer_path=$symbolizer"
export LSAN_OPTIONS="suppressions=$supp/leak.supp"
export PATH="$PWD/.venv/bin:$PATH"

# The first line of a report; a file without one holds only the runtime's list of suppressions used.
report_line="^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (Address|Leak|Thread)Sanitizer)"
rows=()
status=0
for sanitizer in "${sanitizers[@]}"; do
    rm -f "$reports/$sanitizer".*
    log=.build/sanitize-$sanitizer.log
    nice -n 10 "$swift" build --build-tests --disable-local-rpath --sanitize="$sanitizer" --scratch-path ".build/$sanitizer" > "$log" 2>&1 || {
        rows+=("$sanitizer	build failed (see $log)	-	-")
        status=1
        continue
    }
    filter=()
    [[ -n ${SANITIZE_FILTER:-} ]] && filter=(--filter "$SANITIZE_FILTER")
    "$swift" test --skip-build --no-parallel --sanitize="$sanitizer" --scratch-path ".build/$sanitizer" "${filter[@]}" >> "$log" 2>&1
    tests=$?
    summary=$(grep -E "^(Executed [0-9]+ tests|.*Test run with [0-9]+ tests)" "$log" | sed 's/^[^A-Za-z]*//' | tr '\n' ';')
    found=$(cat "$reports/$sanitizer".* 2>/dev/null | grep -cE "$report_line")
    rows+=("$sanitizer	${summary:-no test summary}	$found	$([[ $tests == 0 ]] && echo passed || echo FAILED)")
    ((tests == 0 && found == 0)) || status=1
done

{
    printf 'sanitizer\ttests\treports\tsuite\n'
    printf '%s\n' "${rows[@]}"
} | column -t -s $'\t'
for sanitizer in "${sanitizers[@]}"; do grep -lE "$report_line" "$reports/$sanitizer".* 2>/dev/null; done | sed 's|^.*/|report: .build/sanitizer-reports/|'
exit $status
