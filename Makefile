# AuthVault: the README's commands. `make test` is what CI runs (.ci/run).
SWIFT ?= swift
PREFIX ?= /usr/local
BUILD_FLAGS = -c release --static-swift-stdlib
FUZZ_SECONDS ?= 60

.PHONY: all build debug demo test fuzz faults sanitize bench install deps-build deps-test clean

all: build

deps-build:
	@Scripts/install-deps.sh build

deps-test:
	@Scripts/install-deps.sh test

## Release build of the authvault binary (static Swift runtime: fast start-up).
build: deps-build
	$(SWIFT) build $(BUILD_FLAGS) --product authvault
	@echo "Built $$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault"

## Installs the binary and the names other tools run it by (git, docker and Vault credential helpers).
install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault" "$(DESTDIR)$(PREFIX)/bin/authvault"
	for name in git-credential-authvault docker-credential-authvault vault-token-helper-authvault; do \
		ln -sf authvault "$(DESTDIR)$(PREFIX)/bin/$$name"; \
	done

## The main job end to end on the embedded default: a local Cognito emulator and the encrypted-file vault, in a
## throw-away home directory; stops everything it started.
demo: deps-test
	$(SWIFT) build $(BUILD_FLAGS) --product authvault
	Scripts/demo.sh "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/authvault"

debug: deps-build
	$(SWIFT) build

## Every test: unit tests and the end-to-end tests against real peers. One test at a time: many start servers and
## dozens of processes, and on two cores running them side by side turns their timing checks into noise.
test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel
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
