# BPF token series, step by step, on Debian 12's Linux 6.1.
# `make help` lists the targets.  Everything generated goes to build/.

TOP    := $(CURDIR)
export TOP
STEPS  := $(shell TOP='$(TOP)' sh -c '. kernel/lib.sh && series_steps')
# The steps that speak v6's ABI, and those after the "# shipped ABI"
# line that speak the one Linux 6.9 shipped: each ABI has its initramfs.
V6_STEPS      := $(shell TOP='$(TOP)' sh -c '. kernel/lib.sh && v6_abi_steps')
SHIPPED_STEPS := $(shell TOP='$(TOP)' sh -c '. kernel/lib.sh && shipped_abi_steps')
# Every step that has a demo: userspace-demo/<step>.c
demos_of = $(foreach s,$(1),$(if $(wildcard userspace-demo/$(s).c),$(s)))
DEMOS  := $(call demos_of,$(STEPS))
# The suites (bad input, escapes, lifetime, fuzzer) test the finished
# series: they are built against the last step's headers.
SUITES := $(basename $(notdir $(wildcard userspace-demo/suites/*.c)))
# Tools for the VM shell (bpffs-mount), built like the suites
TOOLS  := $(basename $(notdir $(wildcard userspace-demo/tools/*.c)))
LAST   := $(lastword $(STEPS))
LAST_V6 := $(lastword $(V6_STEPS))
STEP   ?=
CASES  ?=

# A stop of the top make (INT, TERM, HUP or QUIT to its process alone, as
# `kill PID` or a CI timeout sends it) stops everything it started, QEMU
# included: GNU make itself only waits for its jobs.  kernel/stopguard.sh
# watches this make from beside it and ends with it.  Not for make -n,
# nor for make help.  It never holds build/.lock (fd 9, which a make
# started by a test inherits): a stop must leave the lock free at once.
ifeq ($(MAKELEVEL),0)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
ifneq ($(filter-out help,$(or $(MAKECMDGOALS),help)),)
STOPGUARD := $(shell sh kernel/stopguard.sh $$PPID </dev/null >/dev/null 9>&- &)
endif
endif
endif

# One recipe at a time: the kernel builds use every core themselves and
# share the checkout's lock (build/.lock), and the VM runs are scheduled
# by vm/qemu.sh, one per core.  make -j would only have them refuse
# each other.
.NOTPARALLEL:
.DELETE_ON_ERROR:
.PHONY: help deps tree check-step build build-all build-debug build-mainline demos demos-mainline initramfs \
	initramfs-mainline demos-shipped initramfs-shipped client run run-debug fuzz vm matrix demo check \
	refresh series debian-patches branches docs slides bundle checkpatch compat port fresh wide-check test-host bench clean distclean

help:
	@echo "BPF token and BPF FS-based delegation (v6), step by step on Linux 6.1"
	@echo
	@echo "The two commands:"
	@echo "  make demo            build every step and Debian's 6.12, run every demo, suite and"
	@echo "                       the token selftest in QEMU, print the matrix"
	@echo "  make check           everything 'make demo' does, plus the debug kernel run (suites,"
	@echo "                       short fuzz pass, kmemleak), the host tests, checkpatch, the"
	@echo "                       wide-config and Debian-config compiles, the series and the"
	@echo "                       Debian patch queue checks; ends with"
	@echo "                       'N passed, N failed'.  Every test runs; a kernel or VM run"
	@echo "                       is reused only on byte-identical recorded inputs."
	@echo "                       FAILED=1 runs only what failed in the last check"
	@echo
	@echo "Pieces:"
	@echo "  make deps            install the Debian packages (idempotent; prints sudo line if not root)"
	@echo "                       and the deck's reveal.js (npm ci, pinned) into build/npm"
	@echo "  make tree            build/linux: Debian's 6.1 source as git, branch step-NN per step"
	@echo "  make build [STEP=NN] kernel + UAPI headers + libbpf.a into build/out/step-NN (all steps)"
	@echo "  make demos           the demo binaries, each against its own step's headers, and for"
	@echo "                       the steps of the shipped ABI, all against the newest step's"
	@echo "  make initramfs       busybox + demos -> build/initramfs.cpio.gz (v6 ABI steps);"
	@echo "                       make initramfs-shipped: build/initramfs-shipped.cpio.gz (the rest)"
	@echo "  make run STEP=NN [CASES='00-baseline:map.*']  boot one step and run demos"
	@echo "  make vm STEP=NN      interactive shell in that step's VM (STEP=mainline: 6.12's)"
	@echo "      [DELEGATE='delegate_cmds=map_create:prog_load delegate_maps=array']"
	@echo "                       ... with a BPF FS delegating that at /mnt/delegated"
	@echo "  make client          6.12's bpftool (static, its libbpf 1.5) and the objects the client"
	@echo "                       suite loads with it -> build/client/ (every image carries them)"
	@echo "  make build-mainline  Debian's 6.12 (upstream's final BPF token) with BTF, JIT and BPF LSM,"
	@echo "                       and upstream's own token selftest -> build/out/mainline"
	@echo "  make run STEP=mainline [CASES=...]  every demo and suite on it, through the compat layer,"
	@echo "                       then upstream's token selftest"
	@echo "  make build-debug     the last step with KASAN, kmemleak, lockdep, UBSAN -> build/out/debug"
	@echo "  make run-debug [CASES=...]  boot it: every demo and suite, the fuzzer, a kmemleak scan"
	@echo "  make fuzz [FUZZ_SEED=n FUZZ_COUNT=n FUZZ_SECONDS=n]  a longer fuzz pass on the debug kernel"
	@echo "  make matrix          run every step and mainline, one VM per core (VM_JOBS=N), write"
	@echo "                       build/report/matrix.tsv; a run whose recorded inputs (kernel,"
	@echo "                       initramfs, QEMU, scripts) are unchanged is not booted again"
	@echo "  make refresh STEP=NN turn commits made on branch step-NN back into steps/NN-*/patch"
	@echo "  make series          the steps as a git format-patch series in build/series/, checked with git am"
	@echo "  make debian-patches  the steps as a Debian quilt queue with DEP-3 headers in build/debian-patches/,"
	@echo "                       checked with quilt push -a --fuzz=0 on a fresh linux-source-6.1"
	@echo "  make branches        the same as make tree: branches step-00..step-NN in build/linux"
	@echo "  make docs            build/docs/: one page per step, hunks beside their notes, the measured matrix"
	@echo "                       with its flips, the workshop page; the answer key in instructor.html"
	@echo "  make slides          build/slides/: the workshop deck (reveal.js, offline; S: presenter notes),"
	@echo "                       every slide measured in Chromium to fit, the handout slides.pdf"
	@echo "  make bundle          build/bundle/bpf-token-steps-VERSION.tar.gz: every step's kernel, the initramfs,"
	@echo "                       docs, slides, kernel source and ./bpftoken, a runner that needs only QEMU"
	@echo "                       (the learners' file, no answers); ...-trainer.tar.gz: the answer key"
	@echo "  make checkpatch      scripts/checkpatch.pl on every step patch"
	@echo "  make compat [BASES='6.1.176-1 ...']  the steps on every Debian 6.1.y the archive has:"
	@echo "                       apply, 3-way, build, boot -> build/report/compat.tsv"
	@echo "  make port BASE=6.1.176-1  re-make the steps on that 6.1.y like git rebase; stops at a"
	@echo "                       conflict, run again after resolving; ADOPT=1 makes it the pinned base"
	@echo "  make fresh           'make demo' in a minimal Debian 12 root (mmdebstrap), nothing preinstalled"
	@echo "  make wide-check [STEP=NN]  compile what a step touches under a wide config; then (or with"
	@echo "                       STEP=debian alone) what any step touches, as the last step has it,"
	@echo "                       with Debian's own amd64 config"
	@echo "  make test-host       the tests of the tooling in tests/host (builds every step, 6.12 and the"
	@echo "                       initramfs first if needed, the patch queue and the Debian-config"
	@echo "                       compile; a few of them boot a VM)"
	@echo "  make bench           cold build, one-file rebuild, boot-to-result (BENCH_COLD=0: boots only)"
	@echo "  make clean           remove build outputs and scratch; keep the kernel trees and object"
	@echo "                       dirs (build/linux*, build/obj, obj-debug, obj-mainline) and the caches"
	@echo "  make distclean       remove build/ entirely (refuses if build/linux has your edits)"
	@echo
	@echo "Steps: $(STEPS)"
	@echo "V=1 shows the demos' full compiler commands; VM_TIMEOUT=s and BPFTOK_ACCEL=tcg|kvm tune vm/run."

deps:
	@sh kernel/deps.sh

tree:
	@sh kernel/tree.sh apply

build:
	@if [ -n "$(STEP)" ]; then \
		sh kernel/build.sh "$(STEP)"; \
	else \
		$(MAKE) -s build-all; \
	fi

# The kernels, the demos and the initramfs are files make keeps, each
# made again when a file it is made from is newer.  A kernel's recipe,
# kernel/build.sh, then compares what the step is built from byte for
# byte (its stamp: commit, config, toolchain) and only touches a build
# that is still current, so a checkout or a touch costs a second, not a
# build.  What every kernel is made from: the scripts, the pinned base,
# the config, and the toolchain (build/toolchain.id, rewritten only when
# gcc, ld or pahole report another version).
KERNEL_TARBALL ?= /usr/src/linux-source-6.1.tar.xz
MAINLINE_TARBALL ?= /usr/src/linux-source-6.12.tar.xz
TOOLCHAIN_ID := $(shell TOP='$(TOP)' sh -c '. kernel/lib.sh && toolchain_record' 2>/dev/null)
KERNEL_IN := kernel/build.sh kernel/lib.sh kernel/tree.sh kernel/versions \
	kernel/config/base.config build/toolchain.id
# (missing only when toolchain_id could not read a version: it says why)
build/toolchain.id:
	@TOP='$(TOP)' sh -c '. kernel/lib.sh && toolchain_record'
step_id = $(firstword $(subst -, ,$(1)))
STAMP_OF = build/out/step-$(call step_id,$(1))/stamp
STAMPS := $(foreach s,$(STEPS),$(call STAMP_OF,$(s)))
LAST_STAMP := $(call STAMP_OF,$(LAST))

# Each step is built on the one before it (the same object directory,
# an incremental build), so its stamp depends on the previous step's and
# on its own patch and config fragment: an edit to step NN's patch redoes
# NN and the steps after it.  Step 00 depends on what every kernel is made from.
define step_rule
$(call STAMP_OF,$(1)): $(if $(2),$(call STAMP_OF,$(2)),$(KERNEL_IN) steps/series $(wildcard $(KERNEL_TARBALL))) \
		$(wildcard steps/$(1)/patch steps/$(1)/config)
	@sh kernel/build.sh $(1)
endef
$(foreach i,$(shell seq $(words $(STEPS))),$(eval $(call step_rule,$(word $(i),$(STEPS)),$(if $(filter-out 1,$(i)),$(word $(shell expr $(i) - 1),$(STEPS))))))
build-all: $(STAMPS)

# The v6 image: each demo of a v6 step against the headers and libbpf
# of the step it belongs to (NN-slug.c: step NN); the suites, the VM
# tools and the demos of the shipped steps against the last v6 step's.
# userspace-demo/Makefile knows each object's own prerequisites.
DEMO_IN := userspace-demo/Makefile userspace-demo/bpf-names.sh \
	$(wildcard userspace-demo/lib/* userspace-demo/suites/*.h)
V6_DEMOS := $(call demos_of,$(V6_STEPS))
LATE_DEMOS := $(call demos_of,$(SHIPPED_STEPS))
DEMO_BINS := $(addprefix build/demos/,$(V6_DEMOS))
EXTRA_BINS := $(addprefix build/demos/,$(SUITES) $(TOOLS) $(LATE_DEMOS))
EXTRA_SRC := $(wildcard userspace-demo/suites/*.c userspace-demo/tools/*.c)
LATE_SRC := $(addprefix userspace-demo/,$(addsuffix .c,$(LATE_DEMOS)))
LAST_V6_STAMP := $(call STAMP_OF,$(LAST_V6))
demo_make = $(MAKE) -s -C userspace-demo STEPDIR=$(TOP)/build/out/$(1) \
	OBJDIR=$(TOP)/build/demos/obj/$(1) BINDIR=$(TOP)/build/demos DEMOS="$(2)"

.SECONDEXPANSION:
$(DEMO_BINS): build/demos/%: userspace-demo/%.c $(DEMO_IN) $$(call STAMP_OF,$$*)
	@$(call demo_make,step-$(call step_id,$*),$*)
# One make for the suites, tools and later demos (they share the step's
# library objects), which relinks what changed; its stamp marks them current.
EXTRA_STAMP := build/demos/extras.stamp
$(EXTRA_STAMP): $(EXTRA_SRC) $(LATE_SRC) $(DEMO_IN) $(LAST_V6_STAMP)
	@$(call demo_make,step-$(call step_id,$(LAST_V6)),$(SUITES) $(TOOLS) $(LATE_DEMOS))
	@touch $@
demos: $(DEMO_BINS) $(EXTRA_STAMP)

# The real client every image carries for the client suite: 6.12's
# bpftool, built from that tree with its libbpf, and the objects it loads.
CLIENT_SRC := $(wildcard userspace-demo/client/*.bpf.c)
CLIENT := build/client/bpftool $(patsubst userspace-demo/client/%.c,build/client/%.o,$(CLIENT_SRC))
$(CLIENT) &: kernel/client.sh kernel/lib.sh $(CLIENT_SRC) build/toolchain.id \
		$(wildcard $(MAINLINE_TARBALL))
	@sh kernel/client.sh
client: $(CLIENT)

# The image holds busybox, vm/init, the demos and the newest v6 step's
# token selftest (built with that step's kernel).
V6_STAMPS := $(foreach s,$(V6_STEPS),$(call STAMP_OF,$(s)))
build/initramfs.cpio.gz: $(DEMO_BINS) $(EXTRA_STAMP) $(V6_STAMPS) $(CLIENT) vm/init vm/mkinitramfs.sh $(wildcard /bin/busybox)
	@sh vm/mkinitramfs.sh $(DEMO_BINS) $(EXTRA_BINS)
initramfs: build/initramfs.cpio.gz

# The mainline column: Debian's 6.12, upstream's merged BPF token.  Every
# demo and suite is built again against its headers and libbpf, through
# the compatibility layer in userspace-demo/lib/demo.h.
MAINLINE_STAMP := build/out/mainline/stamp
$(MAINLINE_STAMP): $(KERNEL_IN) kernel/config/mainline.config kernel/upstream-token.sh \
		$(wildcard userspace-demo/upstream/* $(MAINLINE_TARBALL))
	@sh kernel/build.sh --mainline
build-mainline: $(MAINLINE_STAMP)

ALL_DEMO_SRC := $(addprefix userspace-demo/,$(addsuffix .c,$(DEMOS))) $(EXTRA_SRC)
MAINLINE_BINS := $(addprefix build/demos-mainline/,$(DEMOS) $(SUITES) $(TOOLS))
MAINLINE_DEMO_STAMP := build/demos-mainline/stamp
$(MAINLINE_DEMO_STAMP): $(ALL_DEMO_SRC) $(DEMO_IN) $(MAINLINE_STAMP)
	@$(MAKE) -s -C userspace-demo STEPDIR=$(TOP)/build/out/mainline \
		OBJDIR=$(TOP)/build/demos-mainline/obj BINDIR=$(TOP)/build/demos-mainline \
		DEMOS="$(DEMOS) $(SUITES) $(TOOLS)"
	@touch $@
demos-mainline: $(MAINLINE_DEMO_STAMP)

build/initramfs-mainline.cpio.gz: $(MAINLINE_DEMO_STAMP) $(CLIENT) vm/init vm/mkinitramfs.sh $(wildcard /bin/busybox)
	@sh vm/mkinitramfs.sh --mainline $(MAINLINE_BINS)
initramfs-mainline: build/initramfs-mainline.cpio.gz

# The shipped image, for the steps that speak the ABI 6.9 shipped: every
# demo, suite and tool against the newest step's headers, linked with
# 6.12's libbpf (1.5, a release that speaks that ABI), and the newest
# step's token selftests: its tree's and upstream's.
SHIPPED_BINS := $(addprefix build/demos-shipped/,$(DEMOS) $(SUITES) $(TOOLS))
SHIPPED_DEMO_STAMP := build/demos-shipped/stamp
$(SHIPPED_DEMO_STAMP): $(ALL_DEMO_SRC) $(DEMO_IN) $(LAST_STAMP) $(MAINLINE_STAMP)
	@$(MAKE) -s -C userspace-demo STEPDIR=$(TOP)/build/out/step-$(call step_id,$(LAST)) \
		LIBBPF=$(TOP)/build/out/mainline \
		OBJDIR=$(TOP)/build/demos-shipped/obj BINDIR=$(TOP)/build/demos-shipped \
		DEMOS="$(DEMOS) $(SUITES) $(TOOLS)"
	@touch $@
demos-shipped: $(SHIPPED_DEMO_STAMP)
demos: $(if $(SHIPPED_STEPS),$(SHIPPED_DEMO_STAMP))

# Upstream's own token selftest for the newest step, as the mainline
# column has it: 6.12's prog_tests/token.c and its BPF programs, these
# compiled against the step's vmlinux BTF (kernel/upstream-token.sh).
LAST_UPSTREAM_TOKEN := build/out/step-$(call step_id,$(LAST))/selftests/upstream_token
$(LAST_UPSTREAM_TOKEN): $(LAST_STAMP) $(MAINLINE_STAMP) kernel/upstream-token.sh \
		$(wildcard userspace-demo/upstream/*)
	@sh kernel/upstream-token.sh build-step $(LAST)

build/initramfs-shipped.cpio.gz: $(SHIPPED_DEMO_STAMP) $(LAST_STAMP) $(LAST_UPSTREAM_TOKEN) $(CLIENT) \
		vm/init vm/mkinitramfs.sh $(wildcard /bin/busybox)
	@sh vm/mkinitramfs.sh --shipped $(SHIPPED_BINS)
initramfs-shipped: build/initramfs-shipped.cpio.gz

# The image a STEP boots: mainline's own, or its ABI's
image_of = $(if $(filter mainline,$(1)),initramfs-mainline,$(if $(filter shipped,$(shell \
	TOP='$(TOP)' sh -c '. kernel/lib.sh && step_abi "$(1)"')),initramfs-shipped,initramfs))
VM_IMAGE = $(call image_of,$(STEP))

# A bad STEP stops here, before the minutes of building the image.
check-step:
	@[ "$(STEP)" = mainline ] || TOP='$(TOP)' sh -c '. kernel/lib.sh && resolve_step "$(STEP)" >/dev/null'

run: check-step
	@$(MAKE) -s $(VM_IMAGE)
	@sh vm/run "$(STEP)" $(CASES)

vm: check-step
	@$(MAKE) -s $(VM_IMAGE)
	@DELEGATE="$(DELEGATE)" sh vm/run --shell "$(STEP)"

DEBUG_STAMP := build/out/debug/stamp
$(DEBUG_STAMP): $(LAST_STAMP) kernel/config/debug.config
	@sh kernel/build.sh --debug
build-debug: $(DEBUG_STAMP)

# the debug kernel is the last step's, so it boots that step's image
DEBUG_IMAGE = $(call image_of,$(LAST))
run-debug: build-debug
	@$(MAKE) -s $(DEBUG_IMAGE)
	@sh vm/run --debug $(CASES)

# A fresh seed each time unless given; the run prints it for a replay.
FUZZ_SEED    ?= $(shell date +%s)
FUZZ_COUNT   ?= 20000
FUZZ_SECONDS ?= 300
fuzz: build-debug
	@$(MAKE) -s $(DEBUG_IMAGE)
	@echo "fuzzing with seed $(FUZZ_SEED) (replay: make fuzz FUZZ_SEED=$(FUZZ_SEED))"
	@FUZZ_SEED=$(FUZZ_SEED) FUZZ_COUNT=$(FUZZ_COUNT) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		VM_TIMEOUT=$$(($(FUZZ_SECONDS) * 2 + 600)) sh vm/run --debug fuzz

# Every VM run of the matrix, made again when a kernel, an image or the
# runner changed.  Each run is then booted only if its recorded inputs
# (build/results/LABEL.inputs: the bytes of its kernel and image, QEMU,
# the accelerator, the scripts) differ, and matrix.tsv is rewritten only
# when a result did: build/report/matrix.done marks the pass.
VM_IN := vm/run vm/qemu.sh vm/parse.awk vm/matrix.sh vm/matrix.awk
build/report/matrix.done: $(STAMPS) $(MAINLINE_STAMP) build/initramfs.cpio.gz \
		$(if $(SHIPPED_STEPS),build/initramfs-shipped.cpio.gz) build/initramfs-mainline.cpio.gz $(VM_IN)
	@rm -f $@
	@sh vm/matrix.sh run
	@touch $@

# make matrix always runs the matrix (still booting only what changed)
matrix:
	@rm -f build/report/matrix.done
	@$(MAKE) -s build/report/matrix.done

# make demo boots every step, whatever an earlier run recorded: it is
# the run a trainer shows
demo: deps
	@$(MAKE) -s matrix VM_REUSE=0

checkpatch:
	@sh kernel/checkpatch.sh

# Another Debian 6.1.y: does the series apply, build and behave there?
BASES ?=
compat: $(call image_of,$(LAST))
	@sh kernel/compat.sh $(BASES)

port:
	@sh kernel/port.sh "$(BASE)" $(if $(filter 1,$(ADOPT)),--adopt)

# The README's make demo in a minimal Debian 12 root with nothing installed
fresh:
	@sh tests/fresh.sh full

wide-check:
	@if [ "$(STEP)" = debian ]; then \
		sh kernel/wide-check.sh --debian; \
	elif [ -n "$(STEP)" ]; then \
		sh kernel/wide-check.sh "$(STEP)"; \
	else \
		sh kernel/tree.sh apply && for s in $(STEPS); do \
			BPFTOK_SERIES_APPLIED=1 sh kernel/wide-check.sh $$s || exit 1; done && \
		BPFTOK_SERIES_APPLIED=1 sh kernel/wide-check.sh --debian; \
	fi

# The host tests read every step's build, the initramfs and 6.12's
# headers, the patch queue and the Debian-config report, and a few boot
# a VM: build what they read first.
test-host: initramfs initramfs-mainline debian-patches
	@sh kernel/wide-check.sh --debian
	@sh tests/run.sh host

bench: initramfs
	@sh tests/bench.sh

check: deps
	@sh tests/run.sh all

refresh:
	@sh kernel/tree.sh refresh "$(STEP)"

series:
	@sh kernel/series.sh

debian-patches:
	@sh kernel/debian-patches.sh

branches: tree

# The site and the deck are files make keeps: made again only when what
# they read changed (the committed sources they show, and what the runs
# measured), so after a NOTES.md edit only they and the bundle are redone.
MEASURED = $(wildcard build/report/*.tsv build/results/*.tsv build/results/*.inputs build/logs/*.console)
DOCS_IN := $(shell git ls-files steps docs userspace-demo kernel/hunks.awk kernel/checkpatch.sh 2>/dev/null)
SLIDES_IN := $(shell git ls-files slides steps docs/workshop.md docs/mainline.md docs/history.md docs/real-systems.md docs/flips.awk docs/learner.awk 2>/dev/null)

docs: build/docs/index.html
build/docs/index.html: $(DOCS_IN) $(MEASURED)
	@sh docs/gen.sh

# The fit's report stays beside the deck (build/slides/fit.txt), which
# the tests read rather than measure again; it exists only when every
# slide fits.
slides: build/slides/fit.txt
build/slides/fit.txt: $(SLIDES_IN) $(MEASURED) build/npm/stamp
	@rm -f $@
	@sh slides/slides.sh
	@sh slides/fit.sh >$@.new 2>&1; status=$$?; cat $@.new; [ $$status = 0 ] && mv $@.new $@
build/npm/stamp:
	@echo "error: reveal.js is not installed in build/npm; run 'make deps'" >&2; exit 1

# The workshop file: builds what it packs, brings the matrix up to date
# (every run whose recorded inputs changed boots again, vm/run --reuse),
# then the docs and the slides from it, then packs them.
bundle: build/report/matrix.done
	@$(MAKE) -s docs slides
	@sh vm/bundle.sh

clean:
	rm -rf build/out build/demos build/results build/report build/logs \
		build/initramfs.* build/initramfs-mainline.* build/initramfs-shipped.* build/demos-mainline build/demos-shipped build/client build/upstream-token-step build/obj-bench build/obj-bench.log build/tools build/obj-wide build/obj-debian build/series build/debian-patches build/debian-patches-check build/docs build/docs.new build/slides build/bundle build/libbpf-cache \
		build/tmp build/test.out build/fresh/root-* build/check

# Refuses while build/ holds the user's work: edits or new files in
# build/linux, step-branch commits not refreshed into steps/, a stopped port.
distclean:
	@sh kernel/tree.sh guard
	rm -rf build
