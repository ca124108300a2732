# TabStage: `make run` serves the built-in demo, `make test` runs every test.
# Both install what is missing first (Debian packages through apt-get when run as root).

SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
BUILD_PACKAGES := libmicrohttpd-dev zlib1g-dev libsqlite3-dev pkg-config
RELEASE_BIN := .build/release/tabstage

.PHONY: deps build release run test test-swift lint bench fuzz soak clean

deps:
	@scripts/ensure-packages $(BUILD_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product tabstage

run: release
	$(RELEASE_BIN) serve --host $(HOST) --port $(PORT)

test: test-swift

test-swift: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

lint:
	$(SWIFT) format lint --strict -r Sources Tests

bench: release
	bench/http.sh
	bench/icons.sh
	bench/sessions-crash.sh
	$(SWIFT) build -c release --product sessions-bench
	.build/release/sessions-bench

# libFuzzer + AddressSanitizer on the parsers of untrusted input, FUZZ_SECONDS (60) per target.
fuzz: deps
	scripts/fuzz

# Minutes of wrk plus idle half-open sockets against a release server on SQLite (SOAK_SECONDS,
# default 180; lower values run 30 s). Not part of `make test`.
soak: release
	bench/soak.sh

clean:
	rm -rf .build build
