# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# Makefile - the front door: `make run` sets up, builds and runs the default experiment;
# `make test` builds both targets and runs every test (native and Windows under Wine, side by side).
.PHONY: format format-check all setup setup-native linux windows run test test-linux test-windows bench clean help

NPROC := $(shell nproc 2>/dev/null || echo 2)
LINUX_BUILD := build/linux
MINGW_BUILD := build/mingw
# Arguments for `make run`, e.g. make run ARGS="--reps 3"
ARGS ?=

all: linux windows

help:
	@echo "make run       build and run the default experiment (quick) on the native build"
	@echo "make test      build both targets and run all tests (native and Windows under Wine, side by side)"
	@echo "make test-linux / make test-windows   one half of make test"
	@echo "make linux     native build in $(LINUX_BUILD)"
	@echo "make windows   MinGW-w64 cross build in $(MINGW_BUILD) (signed with SIGN_CERT and SIGN_KEY, or SIGN_PKCS12)"
	@echo "make bench     build natively and run the performance benchmarks (BENCH_ARGS=...)"
	@echo "make install   build natively and install into PREFIX (/usr/local), DESTDIR for staging"
	@echo "make uninstall remove what make install installed (same PREFIX and DESTDIR)"
	@echo "make clean     remove build/"
	@echo "make format    apply .clang-format to every C file; make format-check fails on any that differs"
	@echo "make setup     install what the tests and the Windows build need (make setup-native: the native build only)"

# Install the missing Debian packages of a profile (scripts/bootstrap.sh); quick when all is there.
# The native targets (run, linux, bench, install) need only the native profile; the tests and the
# Windows build need all of it (and the pinned SQLite amalgamation). setup waits for setup-native
# so the two never run apt at once under make -j.
setup-native:
	@sh scripts/bootstrap.sh native

setup: setup-native
	@sh scripts/bootstrap.sh all

linux: setup-native
	cmake --preset linux >/dev/null
	cmake --build --preset linux -j $(NPROC)

# With a certificate (SIGN_CERT and SIGN_KEY, or SIGN_PKCS12; SIGN_PASSWORD, SIGN_TIMESTAMP: see
# scripts/sign.sh) the programs are signed, then the MSI is built again around the signed programs
# and signed itself: make windows SIGN_PKCS12=cert.pfx SIGN_PASSWORD=...
SIGN_CERT ?=
SIGN_KEY ?=
SIGN_PKCS12 ?=
windows: setup
	cmake --preset mingw >/dev/null
	cmake --build --preset mingw -j $(NPROC)
	@if [ -n "$(SIGN_CERT)$(SIGN_PKCS12)" ]; then \
	  SIGN_CERT="$(SIGN_CERT)" SIGN_KEY="$(SIGN_KEY)" SIGN_PKCS12="$(SIGN_PKCS12)" sh scripts/sign.sh \
	    $(MINGW_BUILD)/threadsoup.exe $(MINGW_BUILD)/threadsoup-idle.exe \
	    $(MINGW_BUILD)/threadsoup-tray.exe && \
	  rm -f $(MINGW_BUILD)/threadsoup.msi && cmake --build --preset mingw --target msi && \
	  SIGN_CERT="$(SIGN_CERT)" SIGN_KEY="$(SIGN_KEY)" SIGN_PKCS12="$(SIGN_PKCS12)" sh scripts/sign.sh \
	    $(MINGW_BUILD)/threadsoup.msi; fi

run: linux
	$(LINUX_BUILD)/threadsoup run $(ARGS)

# Most tests wait (on Wine, on a clock) more than they compute: CTest runs more of them at once
# than there are cores. The test presets (CMakePresets.json) run a failed test once more before
# calling it failed: tests share a busy 2-core machine with other work, and a second failure is
# still a failure.
TEST_JOBS ?= 4

# Both halves side by side, each line marked with its half: the native tests start as soon as the
# native build is done, while the Windows programs compile and Wine's prefix is made beside them
# (wine-run --prepare); the Windows tests follow their build. Fails when either half fails.
test: setup linux
	@cmake --preset mingw >/dev/null && { $(MINGW_BUILD)/wine-run --prepare & }; \
	rc=$$(mktemp -d); t0=$$(date +%s); \
	echo "make test: $$(df -Pm . | awk 'NR == 2 { print $$4 }') MB free on the build's disk" \
	  "(the Windows tests' Wine prefixes take about 1 GB)"; \
	{ ctest --preset linux -j $(TEST_JOBS) 2>&1; echo $$? >$$rc/linux; } | sed -u 's/^/linux   | /' & \
	{ $(MAKE) --no-print-directory test-windows 2>&1; echo $$? >$$rc/windows; } | sed -u 's/^/windows | /'; \
	wait; l=$$(cat $$rc/linux) w=$$(cat $$rc/windows); rm -rf $$rc; \
	echo "make test: native tests $$([ "$$l" = 0 ] && echo passed || echo FAILED)," \
	  "Windows tests $$([ "$$w" = 0 ] && echo passed || echo FAILED), $$(($$(date +%s) - t0)) s," \
	  "$$(df -Pm . | awk 'NR == 2 { print $$4 }') MB left on the build's disk"; \
	[ "$$l" = 0 ] && [ "$$w" = 0 ]

test-linux: setup linux
	ctest --preset linux -j $(TEST_JOBS)

# Wine's servers (one per prefix) are ended afterwards so no Windows process outlives the tests.
test-windows: windows
	ctest --preset mingw -j $(TEST_JOBS); rc=$$?; \
	for p in $(CURDIR)/$(MINGW_BUILD)/wineprefix*/; do \
	  [ -d $$p ] && WINEPREFIX=$$p wineserver -k 2>/dev/null; done; exit $$rc

# threadsoup-bench (tools/engine-bench/): ratios against floors measured in the same run; about
# 6 minutes. Missed targets are printed as MISSED without failing the build, e.g.
# make bench BENCH_ARGS="threads --reps 3".
BENCH_ARGS ?=
bench: linux
	$(LINUX_BUILD)/threadsoup-bench $(BENCH_ARGS)

# make install [PREFIX=/usr/local] [DESTDIR=]: bin/threadsoup with bin/threadsoup-idle beside it
# (threadsoup starts the idle children from its own folder), the systemd unit with ExecStart set to
# the installed program, in PREFIX/lib/systemd/system (systemd reads both /usr/local/lib/systemd
# and /usr/lib/systemd), and the manual page made from the help texts. It builds first;
# INSTALL_FROM=FOLDER installs the programs of an existing native build instead.
.PHONY: install uninstall
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_FROM ?=
BINDIR = $(PREFIX)/bin
SYSTEMD_UNIT_DIR = $(PREFIX)/lib/systemd/system
MAN1DIR = $(PREFIX)/share/man/man1
INSTALL_BUILD = $(or $(INSTALL_FROM),$(LINUX_BUILD))

install: $(if $(INSTALL_FROM),,linux)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMD_UNIT_DIR) $(DESTDIR)$(MAN1DIR)
	install -m 0755 $(INSTALL_BUILD)/threadsoup $(INSTALL_BUILD)/threadsoup-idle $(DESTDIR)$(BINDIR)/
	sed 's|^ExecStart=/usr/local/bin/threadsoup |ExecStart=$(BINDIR)/threadsoup |' \
	  installer/threadsoup.service > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/threadsoup.service.new
	grep -q '^ExecStart=$(BINDIR)/threadsoup service run$$' \
	  $(DESTDIR)$(SYSTEMD_UNIT_DIR)/threadsoup.service.new
	chmod 0644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/threadsoup.service.new
	mv $(DESTDIR)$(SYSTEMD_UNIT_DIR)/threadsoup.service.new $(DESTDIR)$(SYSTEMD_UNIT_DIR)/threadsoup.service
	sh scripts/make-man.sh $(INSTALL_BUILD)/threadsoup > $(DESTDIR)$(MAN1DIR)/threadsoup.1.new
	chmod 0644 $(DESTDIR)$(MAN1DIR)/threadsoup.1.new
	mv $(DESTDIR)$(MAN1DIR)/threadsoup.1.new $(DESTDIR)$(MAN1DIR)/threadsoup.1
	@echo "installed; start the service with: systemctl daemon-reload && systemctl enable --now threadsoup"

# The database (/var/lib/threadsoup, ~/.local/share/threadsoup) stays. Stop the service first:
# systemctl disable --now threadsoup.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/threadsoup $(DESTDIR)$(BINDIR)/threadsoup-idle \
	  $(DESTDIR)$(SYSTEMD_UNIT_DIR)/threadsoup.service $(DESTDIR)$(MAN1DIR)/threadsoup.1

clean:
	rm -rf build

# The house style (.clang-format): `make format` applies it, `make format-check` (run by .ci/run)
# fails on any file that differs from it.
C_SOURCES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	clang-format -i $(C_SOURCES)
format-check:
	@clang-format --dry-run --Werror $(C_SOURCES) && echo "format-check: $(words $(C_SOURCES)) files follow .clang-format"
