# SPDX-License-Identifier: GPL-2.0-or-later
# memcgtop - a top-like console for Linux memory cgroups
#
#   make            check the build's packages (as root: install them), build
#                   ./memcgtop
#   make check      install what the tests need (as root), run every test
#   make bench      benchmarks against a bare read loop and systemd-cgtop
#   make run        install what the build needs (as root), build and start
#   make install    PREFIX=/usr/local, DESTDIR honoured
VERSION  := 0.1
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
DATADIR  ?= $(PREFIX)/share/memcgtop
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions

CC       ?= cc
BUILD    ?= build/default
PKGS     := ncursesw libcgroup libproc2 libbpf libmicrohttpd
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wwrite-strings
ifeq ($(WERROR),1)
WARN     += -Werror
endif
CFLAGS   ?= -O2 -g
PKG_CFLAGS  = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libmicrohttpd: its header only; --listen opens it at run time (dlopen)
PKG_LIBS    = $(shell pkg-config --libs $(filter-out libmicrohttpd,$(PKGS)) 2>/dev/null)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS  = $(shell pkg-config --libs check 2>/dev/null)
CPPFLAGS += -Iinclude -Isrc -DVERSION='"$(VERSION)"' -D_GNU_SOURCE \
            -DTHEMEDIR='"$(DATADIR)/themes"'
ALL_CFLAGS = $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(PKG_CFLAGS)

SRCS      := $(filter-out %.bpf.c,$(wildcard src/*.c src/*/*.c))
LIB_OBJS  := $(patsubst src/%.c,$(BUILD)/%.o,$(filter-out src/main.c,$(SRCS)))
MAIN_OBJ  := $(BUILD)/main.o
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(patsubst tests/unit/%.c,$(BUILD)/unit/%.o,$(UNIT_SRCS))
HEADERS   := $(wildcard include/*.h src/*/*.h) tests/unit/units.h

# The BPF programs: clang -target bpf, CO-RE against the running kernel's
# BTF (src/bpf/kernel_types.h, no vmlinux.h).  clang's object
# (NAME.debug.bpf.o) keeps its DWARF for llvm-objdump -S; bpftool gen object
# links it into NAME.bpf.o without DWARF but with .BTF and .BTF.ext, which
# libbpf needs for the CO-RE relocations (memcg_iter from 36,976 to 20,032
# bytes, reclaim from 31,856 to 16,072).  bpftool gen skeleton makes that
# object a header (NAME.skel.h) that the loader includes: the object's
# bytes, embedded in the binary, so nothing is found at run time, and a
# struct of typed pointers to its maps, programs and global data, so
# nothing is looked up by name and the data's layout is checked when the
# loader compiles (the skeleton's _Static_asserts).
BPF_CLANG ?= clang
# Debian installs it in /usr/sbin, which a user's PATH may lack.
BPFTOOL   ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
BPF_WARN  := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
# memcg_iter: the BPF collector's cgroup iterator (src/bpf/bpfcol_*.c);
# reclaim: the reclaim events' tracepoint programs (src/bpf/bpfev.c);
# oom: the OOM killer's victims (src/bpf/bpfoom.c); memcg_iter_kf: the
# iterator again, built with the kernel's memcg kfuncs (Linux 7.0+), which
# the collector loads in memcg_iter's place where the kernel has them.
BPF_NAMES := memcg_iter memcg_iter_kf reclaim oom
BPF_OBJS  := $(BPF_NAMES:%=$(BUILD)/bpf/%.bpf.o)
BPF_SKELS := $(BPF_NAMES:%=$(BUILD)/bpf/%.skel.h)

# Debian packages: building, testing (unit, TUI, golden, live, VM).
BUILD_DEBS := gcc make pkg-config libncurses-dev libcgroup-dev libproc2-dev \
              clang libbpf-dev bpftool libmicrohttpd-dev \
              libcurl4-openssl-dev libjson-c-dev
TEST_DEBS  := $(BUILD_DEBS) libclang-rt-14-dev check tmux python3 util-linux \
              qemu-system-x86 busybox-static cpio xz-utils prometheus \
              prometheus-node-exporter curl dpkg-dev debhelper lintian \
              openssh-server openssh-client valgrind linux-perf python3-yaml
BENCH_DEBS := $(BUILD_DEBS) python3 tmux systemd strace liburing-dev linux-perf

# The build's packages checked first (one dpkg-query, a few milliseconds
# when all are there): a missing -dev package is named with the command
# that installs it, not found as a compiler's "fatal error: microhttpd.h".
# A named target (memcgtop, BUILD=build/asan build/asan/memcgtop, ...) is
# built without the check, as the package build and make check do.
all: deps
	@$(MAKE) --no-print-directory memcgtop

# Renamed into place: a running ./memcgtop is never overwritten mid-run.
memcgtop: $(BUILD)/memcgtop
	cp $< $@.tmp && mv -f $@.tmp $@

# The program looks for themes beside itself too: so does a build variant.
$(BUILD)/memcgtop: $(LIB_OBJS) $(MAIN_OBJ)
	$(CC) $(LDFLAGS) $(EXTRA_CFLAGS) -o $@ $^ $(PKG_LIBS) -lm
	ln -sfn $(CURDIR)/themes $(@D)/themes

$(BUILD)/check_memcgtop: $(LIB_OBJS) $(UNIT_OBJS)
	$(CC) $(LDFLAGS) $(EXTRA_CFLAGS) -o $@ $^ $(PKG_LIBS) $(CHECK_LIBS) -lm

# memstat.h, the memory.stat rows, is include/'s: kernel_types.h and
# memcg_rec.h are made of it.
BPF_HEADERS := src/bpf/kernel_types.h include/memstat.h
# memcg_iter's parts, by what they read (src/bpf/iter_*.bpf.h).
ITER_PARTS  := $(wildcard src/bpf/iter_*.bpf.h)

$(BUILD)/bpf/memcg_iter.debug.bpf.o: src/bpf/memcg_iter.bpf.c $(BPF_HEADERS) src/bpf/memcg_rec.h $(ITER_PARTS)
	@mkdir -p $(@D)
	$(BPF_CLANG) -target bpf -Iinclude -O2 -g $(BPF_WARN) -c -o $@ $<

$(BUILD)/bpf/memcg_iter_kf.debug.bpf.o: src/bpf/memcg_iter.bpf.c $(BPF_HEADERS) src/bpf/memcg_rec.h $(ITER_PARTS)
	@mkdir -p $(@D)
	$(BPF_CLANG) -target bpf -Iinclude -O2 -g $(BPF_WARN) -DMEMCG_KFUNC -c -o $@ $<

# With atomics (BPF ISA v3: compare-and-exchange, Linux 5.12+).
$(BUILD)/bpf/reclaim.debug.bpf.o: src/bpf/reclaim.bpf.c $(BPF_HEADERS) src/bpf/reclaim_rec.h src/bpf/reclaim_items.h
	@mkdir -p $(@D)
	$(BPF_CLANG) -target bpf -Iinclude -mcpu=v3 -O2 -g $(BPF_WARN) -c -o $@ $<

$(BUILD)/bpf/oom.debug.bpf.o: src/bpf/oom.bpf.c $(BPF_HEADERS) src/bpf/oom_rec.h
	@mkdir -p $(@D)
	$(BPF_CLANG) -target bpf -Iinclude -mcpu=v3 -O2 -g $(BPF_WARN) -c -o $@ $<

# Written beside and renamed: a failed bpftool leaves no file that a
# later make would take for done.
$(BPF_OBJS): $(BUILD)/bpf/%.bpf.o: $(BUILD)/bpf/%.debug.bpf.o
	$(BPFTOOL) gen object $@.tmp $< && mv -f $@.tmp $@

$(BPF_SKELS): $(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $* > $@.tmp && mv -f $@.tmp $@

# The loaders include their skeletons: the pattern rule below compiles
# them, after the headers are made.  The test tools (bpfdump, bpfevdump,
# check_bpfev) include none: they wait for them through these objects.
# The BPF collector's parts (src/bpf/bpfcol_*.c) share bpfcol_int.h,
# which includes memcg_iter's skeleton; bpfcol_load.c memcg_iter_kf's too.
BPFCOL_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(wildcard src/bpf/bpfcol_*.c))
$(BPFCOL_OBJS): $(BUILD)/bpf/memcg_iter.skel.h $(BUILD)/bpf/memcg_iter_kf.skel.h \
	$(BUILD)/bpf/memcg_iter_kf.same
# The loader opens memcg_iter_kf's object through memcg_iter's skeleton:
# their maps and data sections must be the same, member for member.
$(BUILD)/bpf/memcg_iter_kf.same: $(BUILD)/bpf/memcg_iter.skel.h $(BUILD)/bpf/memcg_iter_kf.skel.h
	sed -n '/^struct memcg_iter {/,/^};/p' $(BUILD)/bpf/memcg_iter.skel.h > $@.a
	sed -n '/^struct memcg_iter_kf {/,/^};/p' $(BUILD)/bpf/memcg_iter_kf.skel.h | \
		sed 's/memcg_iter_kf/memcg_iter/g' > $@.b
	test -s $@.a && cmp $@.a $@.b || { echo "memcg_iter_kf's skeleton differs from memcg_iter's"; exit 1; }
	rm -f $@.a $@.b && touch $@
$(BUILD)/bpf/bpfev.o: $(BUILD)/bpf/reclaim.skel.h
$(BUILD)/bpf/bpfoom.o: $(BUILD)/bpf/oom.skel.h
$(BPFCOL_OBJS) $(BUILD)/bpf/bpfev.o $(BUILD)/bpf/bpfoom.o: CPPFLAGS += -I$(BUILD)/bpf

# For tests/live/reclaim-v1.sh: prints the reclaim events' counters.
$(BUILD)/bpfevdump: tests/bpf/bpfevdump.c $(BUILD)/bpf/bpfev.o $(BUILD)/bpf/bpflib.o $(BUILD)/util/xalloc.o $(HEADERS)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/bpf/bpfev.o \
	  $(BUILD)/bpf/bpflib.o $(BUILD)/util/xalloc.o $(PKG_LIBS)

# bpfev_subtree_sums, a pure function, tested on its own.
$(BUILD)/check_bpfev: tests/bpf/check_bpfev.c $(BUILD)/bpf/bpfev.o $(BUILD)/bpf/bpflib.o $(BUILD)/util/xalloc.o $(HEADERS)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(LDFLAGS) -o $@ $< \
	  $(BUILD)/bpf/bpfev.o $(BUILD)/bpf/bpflib.o $(BUILD)/util/xalloc.o \
	  $(PKG_LIBS) $(CHECK_LIBS)

# The page-fault microbenchmark for the reclaim events' overhead.
$(BUILD)/faultbench: tests/bench/faultbench.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# The history's cost per refresh (tests/bench/histbench.c).
$(BUILD)/histbench: tests/bench/histbench.c $(LIB_OBJS) $(HEADERS)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) \
	  $(PKG_LIBS) -lm

# How long a mkdir of a cgroup waits, for tests/bench/lock.sh.
$(BUILD)/lockprobe: tests/bench/lockprobe.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lm

# For tests/bpf/*.sh only: prints the BPF collector's records as lines.
$(BUILD)/bpfdump: tests/bpf/bpfdump.c $(BPFCOL_OBJS) $(BUILD)/bpf/bpflib.o $(BUILD)/util/clock.o $(BUILD)/util/xalloc.o $(HEADERS)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BPFCOL_OBJS) \
	  $(BUILD)/bpf/bpflib.o $(BUILD)/util/clock.o $(BUILD)/util/xalloc.o \
	  $(PKG_LIBS)

$(BUILD)/%.o: src/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/unit/%.o: tests/unit/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/unit $(ALL_CFLAGS) $(CHECK_CFLAGS) -c -o $@ $<

# Installs missing packages as root; otherwise names the command to run,
# on one line.  One dpkg-query for the whole list; without dpkg (not a
# Debian system) nothing is checked.  An interrupted dpkg run (apt-get
# refuses to install after one) is ended first: dpkg --configure -a does
# nothing where none was.
define deps_for
	@command -v dpkg-query >/dev/null 2>&1 || exit 0; \
	missing=$$(dpkg-query -W -f='$${Package} $${Status}\n' $(1) 2>/dev/null | \
	  awk -v want="$(strip $(1))" '/ ok installed$$/ { ok[$$1] = 1 } \
	    END { n = split(want, w, " "); \
	      for (i = 1; i <= n; i++) if (!(w[i] in ok)) printf " %s", w[i] }'); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null 2>&1; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	      apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
	      || { echo "memcgtop: apt-get install$$missing failed" >&2; exit 1; }; \
	  else \
	    echo "memcgtop: missing packages; as root run: apt-get install$$missing" >&2; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call deps_for,$(BUILD_DEBS))

deps-test:
	$(call deps_for,$(TEST_DEBS))

deps-bench:
	$(call deps_for,$(BENCH_DEBS))

run: deps
	@$(MAKE) --no-print-directory memcgtop
	./memcgtop $(ARGS)

# Every test this machine can run; the last line sums them up, the table
# above it gives each suite's wall time.  JOBS=N suites at once (default:
# the CPUs; JOBS=1 one after another), SUITES=tag,pattern,-tag a subset
# (tests/run-all.sh says the tags), e.g. make check SUITES=tui,live.
check: deps-test check-build
	@BUILD=$(BUILD) SUITES='$(SUITES)' JOBS='$(JOBS)' tests/run-all.sh

# The four builds, each with a job per CPU unless make was given -j (its
# job server then shares them out).
CHECK_J = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))
check-build:
	@$(MAKE) --no-print-directory $(CHECK_J) memcgtop
	@$(MAKE) --no-print-directory $(CHECK_J) $(BUILD)/check_memcgtop $(BUILD)/bpfdump \
	  $(BUILD)/bpfevdump $(BUILD)/check_bpfev
	@$(MAKE) --no-print-directory $(CHECK_J) BUILD=build/asan CC=gcc \
	  EXTRA_CFLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
	  build/asan/memcgtop build/asan/check_memcgtop build/asan/bpfdump \
	  build/asan/bpfevdump build/asan/check_bpfev
	@$(MAKE) --no-print-directory $(CHECK_J) BUILD=build/clang CC=clang WERROR=1 \
	  build/clang/memcgtop build/clang/check_memcgtop
	@$(MAKE) --no-print-directory $(CHECK_J) BUILD=build/probe CC=clang WERROR=1 \
	  EXTRA_CFLAGS='-DFIELD_PROBE -Wimplicit-int-conversion' \
	  build/probe/memcgtop build/probe/check_memcgtop

# The suites tagged fast (unit tests, golden output, command line, the
# screen on fixtures), plain build only: the quickest check while working.
check-fast: deps-test
	@$(MAKE) --no-print-directory memcgtop $(BUILD)/check_memcgtop
	@BUILD=$(BUILD) SUITES=fast JOBS='$(JOBS)' tests/run-all.sh

# Benchmarks on live v1 trees of 512 to 8,192 groups (root; see
# tests/bench/run.sh for SIZES and REPS), each view with each collector
# and its stats flushes at 8,192 and 32,768 groups (tests/bench/views.sh),
# and other processes' mkdir beside memcgtop at 8,192 and 30,000
# (tests/bench/lock.sh); no pass or fail, ratios only.
bench: deps-bench memcgtop
	@$(MAKE) --no-print-directory $(BUILD)/faultbench $(BUILD)/bpfevdump \
	  $(BUILD)/lockprobe $(BUILD)/bpfdump
	MEMCGTOP=./memcgtop BUILD=$(BUILD) tests/bench/run.sh
	MEMCGTOP=./memcgtop tests/bench/screen.sh 512
	MEMCGTOP=./memcgtop tests/bench/views.sh 8192 32768
	MEMCGTOP=./memcgtop tests/bench/mem.sh 8192 32768
	MEMCGTOP=./memcgtop tests/bench/views-v2.sh
	MEMCGTOP=./memcgtop BUILD=$(BUILD) BPFDUMP=$(BUILD)/bpfdump tests/bench/lock.sh

# libFuzzer targets for the parsers, 60 s each (make check runs 3 s each).
fuzz:
	tests/fuzz/run.sh --long

install: memcgtop
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/themes
	install -m 755 memcgtop $(DESTDIR)$(BINDIR)/memcgtop
	install -m 644 man/memcgtop.1 $(DESTDIR)$(MANDIR)/man1/memcgtop.1
	for t in themes/*.theme; do [ -e "$$t" ] || continue; \
	  install -m 644 "$$t" $(DESTDIR)$(DATADIR)/themes/; done
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 644 contrib/bash-completion/memcgtop $(DESTDIR)$(COMPLETIONDIR)/memcgtop

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/memcgtop $(DESTDIR)$(MANDIR)/man1/memcgtop.1
	rm -f $(DESTDIR)$(COMPLETIONDIR)/memcgtop
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build/default build/asan build/clang build/probe build/fuzz memcgtop

.PHONY: all deps deps-test deps-bench run check check-build check-fast bench fuzz install uninstall clean
