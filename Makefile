# samplab — build, test, report, bench, golden, golden-check, clean.
# GSL, jansson and Criterion come through pkg-config; mk/deps.sh checks for
# (and, as root, installs) everything a target needs before it runs.

CC      ?= cc
ifeq ($(origin CC),default)
CC      := gcc
endif
CXX     ?= g++
PKGS    := gsl jansson
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
# Never -Ofast or -ffast-math: -0.0, NaN, infinities and exact ties are what
# this toolkit studies; -ffp-contract=off keeps a*b+c two roundings as in the peers.
BASEFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -ffp-contract=off -fno-fast-math -Isrc
CFLAGS  ?= -O2 -g
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
LDLIBS  := -lm
# OpenMP runs the report's independent studies on every core (gcc: libgomp;
# clang: libomp-14-dev). Without pragmas a file is unaffected.
OMP     := -fopenmp
BASEFLAGS += $(OMP)

SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

LIB_SRC := $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c)))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
TEST_SRC:= $(sort $(wildcard tests/*.c))

REL     := build/rel-$(notdir $(CC))
TST     := build/test-$(notdir $(CC))
REL_LIB_OBJ := $(LIB_SRC:%.c=$(REL)/%.o)
REL_CLI_OBJ := $(CLI_SRC:%.c=$(REL)/%.o)
TST_LIB_OBJ := $(LIB_SRC:%.c=$(TST)/%.o)
TST_CLI_OBJ := $(filter-out $(TST)/src/cli/main.o,$(CLI_SRC:%.c=$(TST)/%.o))
TST_OBJ     := $(TEST_SRC:%.c=$(TST)/%.o)

.PHONY: all asan deps deps-test deps-report deps-golden deps-fuzz test test-unit report bench golden golden-check golden-current clean fuzz fuzz-run fuzz-merge
all: bin/samplab

deps:
	@sh mk/deps.sh build
deps-test:
	@sh mk/deps.sh test
deps-report:
	@sh mk/deps.sh report
deps-golden:
	@sh mk/deps.sh golden
deps-fuzz:
	@sh mk/deps.sh fuzz

bin/samplab: $(REL_LIB_OBJ) $(REL_CLI_OBJ)
	@mkdir -p bin
	@echo '  LD      $@'
	@$(CC) $(CFLAGS) $(OMP) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# Header dependencies come from the compiler (-MMD -MP), one .d file per object.
DEPFLAGS := -MMD -MP

$(REL)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo '  CC      $<'
	@$(CC) $(BASEFLAGS) $(DEPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

# The test build: same sources, under AddressSanitizer and UBSan.
$(TST)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo '  CC [asan,ubsan] $<'
	@$(CC) $(BASEFLAGS) $(DEPFLAGS) $(TEST_EXTRA) -O1 -g $(SAN) $(PKG_CFLAGS) -c -o $@ $<

# Test files may use BSD/GNU helpers (mkstemps) on top of POSIX.
$(TST_OBJ): TEST_EXTRA := -D_DEFAULT_SOURCE -Itests

$(TST)/samplab-tests: $(TST_LIB_OBJ) $(TST_CLI_OBJ) $(TST_OBJ)
	@echo '  LD      $@'
	@$(CC) $(SAN) $(OMP) -o $@ $^ $(PKG_LIBS) -lcriterion $(LDLIBS)

# The command line under AddressSanitizer, LeakSanitizer and UBSan (the test
# build's objects plus its main): make test runs every CLI test through it, so
# a leak, an overflow or undefined behaviour on any path fails the test.
ASAN_BIN := build/asan-$(notdir $(CC))/samplab
$(ASAN_BIN): $(TST_LIB_OBJ) $(CLI_SRC:%.c=$(TST)/%.o)
	@mkdir -p $(dir $@)
	@echo '  LD [asan,ubsan] $@'
	@$(CC) $(SAN) $(OMP) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

asan: $(ASAN_BIN)

# Test-only C++ oracles compiled against Debian's headers (libpcg-cpp-dev).
$(TST)/oracle/%: tests/oracle/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -o $@ $<

ORACLES := $(patsubst tests/oracle/%.cpp,$(TST)/oracle/%,$(wildcard tests/oracle/*.cpp))

test: deps-test
	@$(MAKE) --no-print-directory test-unit

test-unit: $(TST)/samplab-tests $(ORACLES) bin/samplab $(ASAN_BIN)
	@sh mk/check-layers.sh $(CC) $(REL_LIB_OBJ) $(REL_CLI_OBJ)
	@for o in $(ORACLES); do $$o > $$o.txt || exit 1; done
	SL_ORACLE_DIR=$(TST)/oracle SL_BIN=$(ASAN_BIN) SL_REL_BIN=bin/samplab ASAN_OPTIONS=detect_leaks=1 \
	  $(TST)/samplab-tests -j2 --short-filename

report: deps-report bin/samplab
	@mkdir -p reports
	bin/samplab report --out reports

bench: deps bin/samplab
	@sh analysis/bench.sh

golden: deps-golden
	@sh analysis/golden/run.sh data/golden

golden-check: deps-golden
	@rm -rf build/golden && mkdir -p build/golden
	@sh analysis/golden/run.sh build/golden
	@# data/golden/current comes from another system's libraries (golden-current), mkl_vsl* from
	@# Intel MKL fetched into build/ (analysis/golden/mkl_fetch.sh, mkl_vsl_golden.sh)
	@diff -r -x current -x "mkl_vsl*" data/golden build/golden && echo "golden-check: data/golden matches the live libraries"

# Today's libraries from a Debian sid chroot (CHROOT=DIR); not run by CI.
golden-current:
	@test -n "$(CHROOT)" || { echo "usage: make golden-current CHROOT=DIR" >&2; exit 2; }
	@sh analysis/golden/current/run.sh "$(CHROOT)" data/golden/current

# Fuzzing with clang's libFuzzer: every reader target tests/fuzz/fuzz_<t>.c runs
# FUZZ_SECONDS (default 60) from the seeds in tests/fuzz/corpus/<t>/ (plus the
# regression inputs in tests/fuzz/regress/<t>/, which make test replays); the
# grown corpus and any crashing input land in build/fuzz/. A finding fails the
# target: fix it, then add the input to tests/fuzz/regress/<t>/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ         := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ)/%.o)
.SECONDARY: $(FUZZ_LIB_OBJ)

$(FUZZ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(DEPFLAGS) -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(PKG_CFLAGS) -c -o $@ $<

$(FUZZ)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/targets.h $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(BASEFLAGS) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) $(PKG_CFLAGS) -o $@ $< $(FUZZ_LIB_OBJ) $(PKG_LIBS) $(LDLIBS)

fuzz: deps-fuzz
	@$(MAKE) --no-print-directory fuzz-run

fuzz-run: $(FUZZ_TARGETS:%=$(FUZZ)/fuzz_%)
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ)/corpus/$$t $(FUZZ)/crash/$$t tests/fuzz/corpus/$$t tests/fuzz/regress/$$t; \
	  dict=; [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  $(FUZZ)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 $$dict \
	    -artifact_prefix=$(FUZZ)/crash/$$t/ $(FUZZ)/corpus/$$t tests/fuzz/corpus/$$t tests/fuzz/regress/$$t \
	    > $(FUZZ)/$$t.log 2>&1 \
	    || { tail -40 $(FUZZ)/$$t.log; echo "fuzz: $$t FAILED; input in $(FUZZ)/crash/$$t/, log $(FUZZ)/$$t.log"; exit 1; }; \
	  grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units|Done [0-9]+ runs)' $(FUZZ)/$$t.log | tail -1; \
	done; echo "fuzz: $(FUZZ_TARGETS): no crash, hang, leak or sanitizer report"

# Keeps what make fuzz found: the inputs of build/fuzz/corpus/<t> that add coverage to
# tests/fuzz/corpus/<t> join it (libFuzzer's -merge=1, so the corpus stays small; the seeds stay).
fuzz-merge: $(FUZZ_TARGETS:%=$(FUZZ)/fuzz_%)
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ)/corpus/$$t tests/fuzz/corpus/$$t; \
	  before=$$(ls tests/fuzz/corpus/$$t | wc -l); \
	  $(FUZZ)/fuzz_$$t -merge=1 tests/fuzz/corpus/$$t $(FUZZ)/corpus/$$t > $(FUZZ)/$$t.merge.log 2>&1 \
	    || { tail -20 $(FUZZ)/$$t.merge.log; exit 1; }; \
	  echo "fuzz-merge: $$t: $$before seeds, now $$(ls tests/fuzz/corpus/$$t | wc -l) inputs"; \
	done

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
