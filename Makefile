# AuthVault: the README's commands. `make test` is what CI runs (.ci/run).
SWIFT ?= swift
PREFIX ?= /usr/local
# No $ORIGIN in the binaries' RUNPATH (SwiftPM adds it otherwise): a library planted beside the binary must never
# load. Every build here passes it, so the tests check the binaries as they ship; `make build`, and the scripts of
# `make deb` and `make demo`, check the binary with Scripts/check-runpath.sh.
LOCAL_RPATH = --disable-local-rpath
# A section per function, so that the linker lays out the hot ones together (Sources/authvault/startup.order).
# Generic types' metadata through accessors that hand the runtime their conformances: looked up by mangled name,
# the first such type (a [String: T]) had the runtime scan every conformance record of the binary, which touched
# 0.3 MB of read-only data and cost 0.5 M instructions of a warm `token`.
BUILD_FLAGS = -c release --static-swift-stdlib $(LOCAL_RPATH) -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
FUZZ_SECONDS ?= 60

.PHONY: format all build debug demo test fuzz faults sanitize bench install uninstall deb deps-build deps-deb deps-test clean

all: build

deps-deb:
	@Scripts/install-deps.sh deb

deps-build:
	@Scripts/install-deps.sh build

deps-test:
	@Scripts/install-deps.sh test

## Release build of the authvault binary (static Swift runtime: fast start-up).
build: deps-build
	$(SWIFT) build $(BUILD_FLAGS) --product authvault
	Scripts/check-runpath.sh "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault"
	@echo "Built $$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault"

## Installs the tree the Debian package holds, under $(DESTDIR)$(PREFIX) (Scripts/install-tree.sh): the binary and
## the names other tools run it by (git, docker and Vault credential helpers), the man pages, the bash, zsh and fish
## completions, the agent's systemd user units, the copyright and changelog.
install: build
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" Scripts/install-tree.sh install "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault"

uninstall:
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" Scripts/install-tree.sh uninstall

## The Debian package, dist/authvault_<version>-<revision>_<arch>.deb (Scripts/build-deb.sh), from the release binary.
deb: deps-deb
	$(SWIFT) build $(BUILD_FLAGS) --product authvault
	Scripts/build-deb.sh "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault"

## The main job end to end on the embedded default: a local Cognito emulator and the encrypted-file vault, in a
## throw-away home directory; stops everything it started. The build's output is shown only when it fails (the
## toolchain's static Foundation makes the linker warn about glibc's mktemp): the screen is the demo's.
demo: deps-test
	@echo "Building the release binary..."
	@log=$$(mktemp) && { $(SWIFT) build $(BUILD_FLAGS) --product authvault > "$$log" 2>&1 || { cat "$$log"; rm -f "$$log"; exit 1; }; } \
		&& rm -f "$$log"
	Scripts/demo.sh "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault"

debug: deps-build
	$(SWIFT) build $(LOCAL_RPATH)

## Every test: unit tests and the end-to-end tests against real peers. One test at a time: many start servers and
## dozens of processes, and on two cores running them side by side turns their timing checks into noise.
## First the whole package as a packager builds it (release, static Swift runtime): the tests check that binary too.
## The tree is checked against .swift-format first (`swift format lint --strict`; `make format` rewrites it).
## Line-buffered, so a log cut short (a time-out) ends at the test that was running.
test: deps-test
	$(SWIFT) format lint --strict --recursive Sources Tests Examples Benchmarks Fuzz
	$(SWIFT) build $(BUILD_FLAGS)
	$(SWIFT) build --build-tests $(LOCAL_RPATH)
	stdbuf -oL -eL $(SWIFT) test --skip-build --no-parallel
	SWIFT=$(SWIFT) Scripts/fuzz.sh --smoke

## Fuzzing: a libFuzzer target per parser (Fuzz/), each run FUZZ_SECONDS; fails on a crash, a leak, a time-out or
## a target that found no new coverage. Prints each target's executions, coverage and new inputs.
fuzz:
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) Scripts/fuzz.sh

## The fault matrix: each row a fault against the real peers in its long form (many SIGKILL rounds, 50 processes),
## printed as a table ending "tokens lost: N"; fails on a failed row, a lost session, a leaked secret or a missing row.
## `make test` runs the same rows in their quick form.
faults: deps-test
	SWIFT=$(SWIFT) Scripts/faults.sh

## The whole suite under ThreadSanitizer and AddressSanitizer (own scratch paths .build/thread, .build/address);
## fails on any report (suppressions: Scripts/sanitizers/*.supp, toolchain and system libraries only).
sanitize: deps-test
	SWIFT=$(SWIFT) Scripts/sanitize.sh

## The benchmark harness: release builds, peers measured side by side (the Python peers from the project's .venv).
bench: deps-test
	$(SWIFT) build $(BUILD_FLAGS) --product authvault
	$(SWIFT) build $(BUILD_FLAGS) --product authvault-bench
	$(SWIFT) build $(BUILD_FLAGS) --product authvault-yardstick
	PATH="$(CURDIR)/.venv/bin:$$PATH" Scripts/with-secret-service.sh "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault-bench" \
		--authvault "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault" \
		--yardstick "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault-yardstick"

clean:
	$(SWIFT) package clean

## Rewrites the tree to the project's style (.swift-format: 4 spaces, 120 columns); `make test` lints it first.
format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Examples Benchmarks Fuzz
