# Makefile - the front door: `make run` sets up, builds and runs the default experiment;
# `make test` builds both targets and runs every test (native, then Windows under Wine).
.PHONY: all setup linux windows run test test-linux test-windows bench clean help

NPROC := $(shell nproc 2>/dev/null || echo 2)
LINUX_BUILD := build/linux
MINGW_BUILD := build/mingw
# Arguments for `make run`, e.g. make run ARGS="--reps 3"
ARGS ?=

all: linux windows

help:
	@echo "make run       build and run the default experiment (quick) on the native build"
	@echo "make test      build both targets and run all tests (native, then Windows under Wine)"
	@echo "make linux     native build in $(LINUX_BUILD)"
	@echo "make windows   MinGW-w64 cross build in $(MINGW_BUILD)"
	@echo "make bench     build natively and run the performance benchmarks (BENCH_ARGS=...)"
	@echo "make clean     remove build/"

# Installs missing Debian packages and the pinned SQLite amalgamation; quick when all is there.
setup:
	@sh scripts/bootstrap.sh

linux: setup
	cmake --preset linux >/dev/null
	cmake --build --preset linux -j $(NPROC)

windows: setup
	cmake --preset mingw >/dev/null
	cmake --build --preset mingw -j $(NPROC)

run: linux
	$(LINUX_BUILD)/threadsoup run $(ARGS)

test: test-linux test-windows

test-linux: linux
	ctest --preset linux -j $(NPROC)

# Wine's server is ended afterwards so no Windows process outlives the tests.
test-windows: windows
	ctest --preset mingw -j $(NPROC); rc=$$?; \
	for p in $(CURDIR)/$(MINGW_BUILD)/wineprefix $(CURDIR)/$(MINGW_BUILD)/wineprefix-gui \
	         $(CURDIR)/$(MINGW_BUILD)/wineprefix-service $(CURDIR)/$(MINGW_BUILD)/wineprefix-tray \
	         $(CURDIR)/$(MINGW_BUILD)/wineprefix-msi; do \
	  [ -d $$p ] && WINEPREFIX=$$p wineserver -k 2>/dev/null; done; exit $$rc

# Ratios against floors measured in the same run; about 6 minutes. Missed targets are printed as
# MISSED without failing the build, e.g. make bench BENCH_ARGS="threads --reps 3".
BENCH_ARGS ?=
bench: linux
	$(LINUX_BUILD)/threadsoup-bench $(BENCH_ARGS)

clean:
	rm -rf build
