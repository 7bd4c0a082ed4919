# wormsim: a bare-metal multicomputer emulator.
#   make            build the router/run tool and both node images (ARM, RISC-V)
#   make run        run an app on an emulated machine (NODES= TOPO= DIMS= APP= ARGS= GDB=
#                   MPI='prog.c ..': an MPI program instead of APP, ARGS its argv;
#                   ARCH=arm|riscv|mixed PORT_MODEL= PRESET= NET= TRACE=1 MERGE_PAGES=1 RUNS_DIR=
#                   OUTPUT=node0|all|none TIMEOUT=seconds; README)
#   make replay RUN=dir     run a run directory's command again and compare its figures
#   make net-replay RUN=dir its messages on the network alone (NET= other parameters: a what-if)
#   make test       host unit tests and QEMU boot-and-collect tests
#   make bench      wall-time and memory figures, and the fault soak
#   make fuzz       a long libFuzzer campaign on the router and the relay (FUZZ_SECONDS= FUZZ_JOBS=)
#   make sweep SWEEP=NAME   run a sweep definition (experiments/NAME.sweep) into results/NAME
#   make results    docs/results.md and its plots from results/*/results.csv (also: make plots)
#   make report SWEEP=NAME  report.md and plots of any sweep, beside its CSV (METRIC= a CSV column,
#                   DEF= its definition when neither results/NAME/sweep.def nor experiments/NAME.sweep is)
#   make reproduce  every paper reproduction sweep, then make results
#   make heatmap RUN=dir    per-link load PNG of one 2D mesh or torus run (METRIC= blocked ...)
#   make calibrate-delta    fit presets/delta.conf on its declared training cells
#   make gdb NODE=k attach gdb-multiarch to a node started with GDB=k
#   make deps       install the Debian packages the project needs (root; the first step
#                   that lacks one installs them all too; apt-get's output in build/deps.log)
#   V=1             with any of them: every command as it runs, and all output whole

.DEFAULT_GOAL := all   # plain make: the first target below would be a node's flags file
# A user's value is text, never make code: make would expand a $(...) in
# it (running $(shell ...)) when it exports or reads the variable. Each
# variable given on the command line or in the environment keeps its text.
USER_VARS = MPI APP NODES TOPO DIMS ARGS GDB PORT_MODEL PRESET NET ARCH RUNS_DIR TRACE MERGE_PAGES OUTPUT TIMEOUT RUN NODE SWEEP JOBS METRIC OUT DEF \
            FUZZ_SECONDS FUZZ_JOBS SWEEP_ARGS RECHECK_ARGS CALIBRATE_ARGS GDB_ARGS
$(foreach v,$(USER_VARS),$(if $(filter command line environment,$(origin $(v))),$(eval override $(v) := $$(value $(v)))))
BUILD    ?= build
# An empty ARCH or RUNS_DIR means its default, as an empty NODES, TOPO or
# APP does (make run ARCH= ...).
ifeq ($(strip $(value ARCH)),)
override ARCH := arm
endif
ifeq ($(strip $(value RUNS_DIR)),)
override RUNS_DIR := runs
endif
CC       ?= cc
# V=1 on the command line shows every compile and link command as make
# runs it, and apt-get's and the test suites' whole output as it comes. By
# default a recipe line that compiles or links, written
# $(Q)$(call say,CC) (or LD), prints one short line ("  CC      build/host/net/net.o"),
# none under make -s or -n, and the compiler's warnings and errors as ever;
# under make test the short lines go to BUILD_LOG, $(BUILD)/test-build.log.
ifeq ($(origin V),command line)
  ifneq ($(words $(value V)) $(filter 0 1,$(value V)),1 $(value V))
    $(error V=$(value V): expected 1 (every command and all output) or 0 (short lines, the default))
  endif
else
  V := 0
endif
export V
NO_SHORT_LINES := $(findstring s,$(firstword -$(MAKEFLAGS)))$(findstring n,$(firstword -$(MAKEFLAGS)))
Q        = $(if $(filter 1,$(V)),,@)
say      = $(if $(filter 1,$(V))$(NO_SHORT_LINES),,printf '  %-7s %s\n' '$(1)' '$@' $(if $(BUILD_LOG),>> '$(BUILD_LOG)');)

# -fms-extensions: a struct may hold another by its tag as an unnamed
# member, its fields then the holder's (apps/restrict.h's struct app_shape
# holds netdev/topo.h's struct topo_shape so).
C_EXT        = -fms-extensions
HOST_CFLAGS  = -std=gnu11 $(C_EXT) -O2 -g -Wall -Wextra -Werror=implicit-function-declaration -Ihost
HOST_LIBS    = -ljansson
HOST_SRCS    = host/machine.c host/params.c host/net/net.c host/net/net_core.c host/net/net_accel.c host/net/net_build.c host/net/net_inject.c host/net/net_park.c host/net/net_sleep.c host/net/net_jump.c host/net/net_jump_probe.c host/net/net_mc.c host/net/net_topo.c host/net/net_route.c host/net/net_alloc.c host/out/msg_replay.c host/engine/engine.c host/engine/engine_hw.c host/engine/engine_mdw.c host/engine/engine_rdv.c host/engine/pair_order.c host/net/hwnet.c host/out/report.c host/launch/ivshmem.c host/launch/launch.c host/launch/qmp.c host/launch/pool.c host/launch/serve.c host/out/results.c host/launch/arch.c host/launch/image.c host/launch/merge.c host/out/trace.c \
              host/relay/relay.c host/relay/node_host.c host/relay/pace_queue.c host/relay/same_run.c host/relay/link_none.c host/launch/app_mem.c host/files.c host/show.c
HOST_OBJS    = $(HOST_SRCS:%.c=$(BUILD)/%.o)
HOST_HDRS    = $(wildcard host/*.h host/*/*.h host/*/*.def)

# Node images, one per ISA: build/<arch>/node.elf. The kernel, NIC driver
# and apps are the same sources for every board (board/board.h).
ARCHES       = arm riscv
arm_CROSS    = arm-none-eabi-
arm_BOARD    = board/arm-virt
arm_LDS      = linker/arm-virt.ld
arm_FLAGS    = -march=armv7-a -marm -mfloat-abi=soft
riscv_CROSS  = riscv64-unknown-elf-
riscv_BOARD  = board/riscv-virt
riscv_LDS    = linker/riscv-virt.ld
# The rv64imac/lp64 multilib of GCC 12 and picolibc. ISA spec 2.2 counts
# the CSR instructions as part of I; under the newer default binutils 2.40
# refuses them unless Zicsr is named, which no installed multilib matches.
riscv_FLAGS  = -march=rv64imac -mabi=lp64 -mcmodel=medany -misa-spec=2.2
riscv_LDFLAGS = -Wl,--no-warn-rwx-segments   # one RWX segment: M-mode, no MMU
# picolibc's speed-optimised build: memcpy and memset move words, as a
# node's C library would; the size-optimised default copies a byte at a
# time (4 instructions a byte on ARM), which made every large collective
# measure memcpy rather than the network (docs/boards.md).
PICOLIBC     = --specs=picolibc.specs --picolibc-buildtype=release
NODE_CFLAGS  = $(PICOLIBC) $(C_EXT) -O2 -g -Wall -Wextra -ffunction-sections -fdata-sections \
               -DWORMSIM_NODE -Iboard -Ikernel -Inetdev -Iapps
NODE_LDFLAGS = $(PICOLIBC) -nostartfiles -Wl,--gc-sections
COMMON_SRCS  = $(wildcard kernel/*.c) $(wildcard netdev/*.c) $(wildcard apps/*.c) $(wildcard apps/coll/*.c)
NODE_HDRS    = $(wildcard board/*.h kernel/*.h netdev/*.h apps/*.h apps/*.def apps/mpi/*.h apps/mpi/include/*.h)
# The node MPI library (apps/mpi/, docs/mpi.md): linked only into the
# images of MPI programs, which wormsim-mpicc builds.
MPI_LIB_SRCS = $(wildcard apps/mpi/*.c)
# The node calls of the collective library (apps/coll/req.c, run.c) that an
# MPI image routes through apps/mpi/view.c, so that the library runs on a
# sub-communicator as on a machine of its own; the project's own images
# are linked without them.
MPI_WRAP     = net_rank net_nodes net_topology net_send_multi net_recv
# The node offers POSIX clocks (apps/mpi/libc.c), which picolibc declares
# only where these say so.
MPI_USER_CFLAGS = $(PICOLIBC) -O2 -g -ffunction-sections -fdata-sections -D_POSIX_TIMERS=1 -D_POSIX_MONOTONIC_CLOCK=200112L
node_elf     = $(BUILD)/$(1)/node.elf

# build/<arch>/flags holds the compiler and flags an image was built with,
# rewritten only when they change: changing them rebuilds every object.
define node_rules
$(1)_SRCS = $$($(1)_BOARD)/start.S $$($(1)_BOARD)/board.c $$(COMMON_SRCS)
$(1)_OBJS = $$(patsubst %,$$(BUILD)/$(1)/%.o,$$($(1)_SRCS))
$(1)_MPI_OBJS = $$(patsubst %,$$(BUILD)/$(1)/%.o,$$(MPI_LIB_SRCS))
$(1)_USED = $$($(1)_CROSS)gcc $$(NODE_CFLAGS) $$($(1)_FLAGS) -I$$($(1)_BOARD) / $$(NODE_LDFLAGS) $$($(1)_LDFLAGS)
$$(BUILD)/$(1)/flags: FORCE
	@mkdir -p $$(dir $$@)
	@echo '$$($(1)_USED)' | cmp -s - $$@ || echo '$$($(1)_USED)' > $$@
$$(BUILD)/$(1)/%.o: % $$(NODE_HDRS) $$(wildcard $$($(1)_BOARD)/*.h) $$(BUILD)/$(1)/flags | check-node-deps-$(1)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call say,CC)$$($(1)_CROSS)gcc $$(NODE_CFLAGS) $$($(1)_FLAGS) -I$$($(1)_BOARD) -c $$< -o $$@
$$(BUILD)/$(1)/node.elf: $$($(1)_OBJS) $$($(1)_LDS) $$(BUILD)/$(1)/flags
	$$(Q)$$(call say,LD)$$($(1)_CROSS)gcc $$(NODE_LDFLAGS) $$($(1)_FLAGS) $$($(1)_LDFLAGS) -T $$($(1)_LDS) $$($(1)_OBJS) -o $$@
node-$(1): $$(BUILD)/$(1)/node.elf
check-node-deps-$(1):
	@tests/check-deps.sh node-$(1)
.PHONY: node-$(1) check-node-deps-$(1)
endef
$(foreach a,$(ARCHES),$(eval $(call node_rules,$(a))))
FORCE:

# build/bin/wormsim-mpicc: apps/mpi/wormsim-mpicc.sh with each ISA's
# compiler, flags and node objects (absolute paths, so it runs from any
# directory, as mpicc does).
MPICC        = $(BUILD)/bin/wormsim-mpicc
# An MPI program's image may take the largest RAM a run gives a node
# (linker/*.ld); the run tool checks it against the run's ram_mib.
NODE_RAM_MAX_MIB := $(shell sed -n 's/^\#define NODE_RAM_MAX_MIB \([0-9]*\).*/\1/p' netdev/nic_shm.h)
mpicc_vars   = export WMPICC_$(1)_CC='$($(1)_CROSS)gcc' \
               WMPICC_$(1)_CFLAGS='$(MPI_USER_CFLAGS) $($(1)_FLAGS)' \
               WMPICC_$(1)_LDFLAGS='$(NODE_LDFLAGS) $($(1)_FLAGS) $($(1)_LDFLAGS) $(MPI_WRAP:%=-Wl,--wrap=%) -Wl,--defsym=__image_ram_mib=$(NODE_RAM_MAX_MIB) -T $(abspath $($(1)_LDS))' \
               WMPICC_$(1)_OBJS='$(abspath $($(1)_OBJS) $($(1)_MPI_OBJS))'
$(MPICC): apps/mpi/wormsim-mpicc.sh Makefile netdev/nic_shm.h $(foreach a,$(ARCHES),$($(a)_OBJS) $($(a)_MPI_OBJS))
	@mkdir -p $(dir $@)
	$(Q)$(call say,GEN){ echo '#!/bin/sh'; echo '# written by make: the node toolchain for apps/mpi/wormsim-mpicc.sh'; \
	  echo "export WMPICC_INCLUDE='$(CURDIR)/apps/mpi/include'"; \
	  $(foreach a,$(ARCHES),echo "$(call mpicc_vars,$(a))";) \
	  echo 'exec "$(CURDIR)/apps/mpi/wormsim-mpicc.sh" "$$@"'; } > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@
mpicc: $(MPICC)
# make run MPI='prog.c ...': the program's images, one per ISA the run needs.
MPI_NAME     = $(basename $(notdir $(firstword $(MPI))))
mpi_elf      = $(BUILD)/mpi/$(1)/$(MPI_NAME).elf

# ARCH=arm|riscv|mixed (or a comma list such as arm,riscv,riscv: node i
# runs word i mod length; see wormsim --help). The images ARCH needs:
RUN_ARCHES   = $(strip $(if $(or $(findstring arm,$(ARCH)),$(findstring mixed,$(ARCH))),arm) \
                       $(if $(or $(findstring riscv,$(ARCH)),$(findstring mixed,$(ARCH))),riscv))
RUN_ELFS     = $(foreach a,$(RUN_ARCHES),$(call node_elf,$(a)))
NODE_ELF     = $(call node_elf,arm)
NODE_ELF_RISCV = $(call node_elf,riscv)

UNIT_TESTS   = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

# The collective library (apps/coll/, in COMMON_SRCS): all of it runs on the node; its pure
# parts (schedules, registry, app checks, pattern) are also built for the
# host, for the run tool's checks and the unit tests.
COLL_HOST_SRCS = apps/app_check.c apps/pattern.c apps/mpi_settings.c \
                 $(filter-out apps/coll/run.c apps/coll/req.c apps/coll/run_worm.c apps/coll/apps.c,$(wildcard apps/coll/*.c))
HOST_OBJS   += $(COLL_HOST_SRCS:%.c=$(BUILD)/host-apps/%.o)
COLL_DEPS    = apps/restrict.h apps/number.h apps/apps.h apps/apps.def apps/mpi_app.h apps/untimed.h netdev/nic_mdw.h $(wildcard apps/coll/*.h apps/coll/*.def)

WORMSIM      = $(BUILD)/host/wormsim
WORMSIM_MPI  = $(BUILD)/host/wormsim-mpi
NETSIM       = $(BUILD)/host/netsim
# netsim: its options and main (netsim.c) and its runs (host/net/netsim.h)
NETSIM_SRCS  = host/net/netsim.c host/net/netsim_traffic.c host/net/netsim_engine.c host/net/netsim_replay.c
# The user's values reach the tools through the environment, each as one
# argument whatever it holds: recipes name them "$$VAR", never '$(VAR)'.
RUN_MAKE_VARS = MPI APP NODES TOPO DIMS ARGS GDB PORT_MODEL PRESET NET ARCH RUNS_DIR OUTPUT TRACE MERGE_PAGES TIMEOUT
export $(RUN_MAKE_VARS)
# The variables each command a user types takes on its command line (and
# V, BUILD and CC, as every target does). Any other would be ignored, the
# command not the one asked for (make run ROUTING=duato ran dimension
# order; make heatmap RUNDIR=... drew the latest run), so it is refused.
TAKES_run             = $(RUN_MAKE_VARS)
TAKES_replay          = RUN RUNS_DIR
TAKES_net-replay      = RUN RUNS_DIR NET
TAKES_gdb             = RUN NODE GDB GDB_ARGS RUNS_DIR
TAKES_heatmap         = RUN RUNS_DIR METRIC OUT
TAKES_sweep           = SWEEP JOBS SWEEP_ARGS
TAKES_report          = SWEEP METRIC DEF
TAKES_reproduce       = REPRODUCE JOBS SWEEP_ARGS
TAKES_recheck         = RECHECK_ARGS
TAKES_calibrate-delta = CALIBRATE_ARGS
RUN_HINT              = ; a network parameter goes in NET='key=value ...', an app's in ARGS='...'
CHECKED_GOALS := $(filter $(patsubst TAKES_%,%,$(filter TAKES_%,$(.VARIABLES))),$(MAKECMDGOALS))
ifneq ($(CHECKED_GOALS),)
  GOAL_TAKES := V BUILD CC $(foreach g,$(CHECKED_GOALS),$(TAKES_$(g)))
  UNTAKEN := $(filter-out $(GOAL_TAKES),$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v))))
  ifneq ($(UNTAKEN),)
    $(error make $(CHECKED_GOALS) takes no variable $(UNTAKEN); accepted: $(sort $(GOAL_TAKES)) (README)$(if \
      $(filter run,$(CHECKED_GOALS)),$(RUN_HINT)))
  endif
endif
RUN_VARS     = $(if $(MPI),--app mpi,$${APP:+--app "$$APP"}) $${NODES:+--nodes "$$NODES"} \
               $${TOPO:+--topo "$$TOPO"} $${DIMS:+--dims "$$DIMS"} \
               $${ARGS:+--args "$$ARGS"} $${GDB:+--gdb "$$GDB"} \
               $${PORT_MODEL:+--port-model "$$PORT_MODEL"} $${PRESET:+--preset "$$PRESET"} \
               $${NET:+--set "$$NET"} $${OUTPUT:+--output "$$OUTPUT"} $${TIMEOUT:+--timeout "$$TIMEOUT"} \
               $(if $(filter 1,$(TRACE)),--trace) \
               $(if $(filter 1,$(MERGE_PAGES)),--merge-pages) --arch "$$ARCH" \
               --kernel $(if $(MPI),$(call mpi_elf,arm),$(NODE_ELF)) \
               --kernel-riscv $(if $(MPI),$(call mpi_elf,riscv),$(NODE_ELF_RISCV)) --runs-dir "$$RUNS_DIR"
# The router's node-facing surface and the relay's message bodies under
# libFuzzer, ASan and UBSan (tests/fuzz/). make test replays the committed
# corpora and runs a short campaign of each; make fuzz runs long ones.
FUZZ         = $(BUILD)/fuzz/fuzz_router
FUZZ_RELAY   = $(BUILD)/fuzz/fuzz_relay
# The fuzzer builds the router and what it writes, not what starts, serves
# or relays nodes.
FUZZ_SRCS    = $(filter-out host/launch/ivshmem.c host/launch/launch.c host/launch/qmp.c host/launch/pool.c \
                 host/launch/serve.c host/launch/merge.c host/launch/app_mem.c host/relay/% host/out/msg_replay.c, \
                 $(HOST_SRCS))
FUZZ_SECONDS ?= 3600
export FUZZ_SECONDS FUZZ_JOBS

TEST_VARS    = WORMSIM=$(WORMSIM) WORMSIM_MPI=$(WORMSIM_MPI) MPICC=$(MPICC) KERNEL=$(NODE_ELF) KERNEL_RISCV=$(NODE_ELF_RISCV) NETSIM=$(NETSIM) \
               FUZZ=$(FUZZ) FUZZ_RELAY=$(FUZZ_RELAY) BUILD=$(BUILD)

.DELETE_ON_ERROR:   # a failed link leaves no empty node image behind
.PHONY: FORCE all host mpi mpicc replay net-replay check-mpi-deps node nodes run test unit-test qemu-test sweep-test fuzz-test fuzz bench gdb deps check-deps check-host-deps check-fuzz-deps clean sweep results plots report reproduce recheck heatmap calibrate-delta
all: host nodes mpicc

host: $(WORMSIM) $(NETSIM)
nodes: $(foreach a,$(ARCHES),$(call node_elf,$(a)))
node: $(RUN_ELFS)

# Where apt-get's output goes when a step installs (tests/check-deps.sh).
export WORMSIM_DEPS_LOG ?= $(BUILD)/deps.log
check-host-deps:
	@tests/check-deps.sh host
check-deps:
	@tests/check-deps.sh all
check-mpi-deps:
	@tests/check-deps.sh mpi
mpi: $(WORMSIM_MPI)

deps:
	@tests/check-deps.sh install

$(BUILD)/host/%.o: host/%.c $(HOST_HDRS) netdev/nic_shm.h netdev/nic_mdw.h apps/apps.def apps/number.h | check-host-deps
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC)$(CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/host-apps/%.o: %.c $(COLL_DEPS) | check-host-deps
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC)$(CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/host/wormsim.o $(BUILD)/host/run/options.o $(BUILD)/host/run/checks.o $(BUILD)/host/run/start.o $(BUILD)/host/run/events.o $(BUILD)/host/run/ranks.o $(BUILD)/host/run/modes.o $(foreach a,$(ARCHES),$($(a)_OBJS)): $(COLL_DEPS)
$(UNIT_TESTS): tests/unit/sched_sim.h $(COLL_DEPS)

# The run tool's own objects beyond its main: the replay of a run
# (host/out/replay.h; SHA-256 from libcrypto) and the build's identity, which
# host/build_info.sh rewrites only when the commit or the tree's state moves.
WORMSIM_OBJS = $(BUILD)/host/wormsim.o $(BUILD)/host/run/options.o $(BUILD)/host/run/checks.o $(BUILD)/host/run/start.o $(BUILD)/host/run/events.o $(BUILD)/host/run/ranks.o $(BUILD)/host/run/modes.o $(BUILD)/host/out/replay.o $(BUILD)/host/build_info.o
WORMSIM_LIBS = -lcrypto
$(BUILD)/host/build_info.c: FORCE
	@mkdir -p $(dir $@)
	@host/build_info.sh > $@.new && { cmp -s $@.new $@ && rm -f $@.new || mv $@.new $@; }
$(BUILD)/host/build_info.o: $(BUILD)/host/build_info.c
	$(Q)$(call say,CC)$(CC) $(HOST_CFLAGS) -c $< -o $@
FORCE:

$(WORMSIM): $(WORMSIM_OBJS) $(HOST_OBJS)
	$(Q)$(call say,LD)$(CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LIBS) $(WORMSIM_LIBS)

# wormsim-mpi: the same run tool with the link to node hosts over Open MPI
# (host/relay/link.h): mpirun -np H build/host/wormsim-mpi ... spreads the nodes
# over ranks 1..H-1; -np 1 is wormsim itself.
MPI_CFLAGS   = $(shell pkg-config --cflags ompi-c 2>/dev/null)
MPI_LIBS     = $(shell pkg-config --libs ompi-c 2>/dev/null)
$(BUILD)/host/relay/link_mpi.o: host/relay/link_mpi.c host/relay/link.h | check-mpi-deps
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC)$(CC) $(HOST_CFLAGS) $(MPI_CFLAGS) -c $< -o $@

$(WORMSIM_MPI): $(WORMSIM_OBJS) $(filter-out $(BUILD)/host/relay/link_none.o,$(HOST_OBJS)) $(BUILD)/host/relay/link_mpi.o
	$(Q)$(call say,LD)$(CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LIBS) $(WORMSIM_LIBS) $(MPI_LIBS)

$(NETSIM): $(NETSIM_SRCS:%.c=$(BUILD)/%.o) $(HOST_OBJS)
	$(Q)$(call say,LD)$(CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(HOST_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC)$(CC) $(HOST_CFLAGS) -pthread -Ihost $< $(HOST_OBJS) -o $@ $(HOST_LIBS)

# A switch is 1 (on), 0 or empty (off); any other word is refused, not read as on.
check_switch   = case "$$$(1)" in ""|0|1) ;; *) echo "make run: $(1)='$$$(1)': accepted: 1 (on), 0 or empty (off)" >&2; exit 2 ;; esac
CHECK_SWITCHES = $(call check_switch,TRACE); $(call check_switch,MERGE_PAGES)
run: host $(RUN_ELFS) $(if $(MPI),$(MPICC))
	@$(CHECK_SWITCHES)
	@tests/check-deps.sh run $(RUN_ARCHES)
ifneq ($(MPI),)
	@[ -z "$$APP" ] || { echo "make run: MPI= runs an MPI program as app mpi; give APP= or MPI=, not both" >&2; exit 2; }
	@$(foreach a,$(RUN_ARCHES),mkdir -p $(dir $(call mpi_elf,$(a))) && $(MPICC) --arch $(a) -o $(call mpi_elf,$(a)) $$MPI &&) true
endif
	@$(WORMSIM) $(RUN_VARS)

# RUN= a run directory (default: the latest run under RUNS_DIR)
replay: host
	@$(WORMSIM) --replay "$${RUN:-$$RUNS_DIR/latest}"
# The same run's messages on the network alone (netsim --replay); NET=
# other network parameters for an open-loop what-if
net-replay: host
	@$(NETSIM) --replay "$${RUN:-$$RUNS_DIR/latest}" $${NET:+--set "$$NET"}

unit-test: host $(UNIT_TESTS)
	@tests/run-unit.sh $(UNIT_TESTS)

qemu-test: all $(WORMSIM_MPI)
	@tests/check-deps.sh run $(ARCHES)
	@$(TEST_VARS) tests/qemu/run.sh

sweep-test: all $(BUILD)/tests/test_tseng
	@tests/check-deps.sh run
	@tests/check-deps.sh sweep
	@$(TEST_VARS) tests/sweep/run.sh

# make test: the build's short lines go to $(BUILD)/test-build.log (the
# compiler's warnings and errors still to the console), each suite's whole
# output to $(BUILD)/test-logs/ (tests/run-all.sh); V=1 shows it all.
test: BUILD_LOG = $(BUILD)/test-build.log
test: test-build-log all $(WORMSIM_MPI) $(MPICC) $(UNIT_TESTS) $(FUZZ) $(FUZZ_RELAY)
	@tests/check-deps.sh run $(ARCHES)
	@tests/check-deps.sh sweep
	@$(TEST_VARS) UNIT_TESTS="$(UNIT_TESTS)" tests/run-all.sh
# The build log of this make test, started before its first compile.
test-build-log:
	@mkdir -p $(BUILD) && : > $(BUILD)/test-build.log
	$(if $(filter 1,$(V)),,@echo "building what the tests need (log: $(BUILD)/test-build.log)")
.PHONY: test-build-log

check-fuzz-deps:
	@tests/check-deps.sh fuzz
$(FUZZ): tests/fuzz/fuzz_router.c $(FUZZ_SRCS) $(HOST_HDRS) netdev/nic_shm.h apps/number.h | check-fuzz-deps
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC)clang -std=gnu11 $(C_EXT) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	      -Ihost $< $(FUZZ_SRCS) -o $@ $(HOST_LIBS)
$(FUZZ_RELAY): tests/fuzz/fuzz_relay.c host/relay/relay.c host/relay/relay.h netdev/nic_shm.h | check-fuzz-deps
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC)clang -std=gnu11 $(C_EXT) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	      -Ihost $< host/relay/relay.c -o $@
fuzz-test: $(FUZZ) $(FUZZ_RELAY)
	@FUZZ=$(FUZZ) FUZZ_RELAY=$(FUZZ_RELAY) BUILD=$(BUILD) tests/fuzz/run.sh
fuzz: $(FUZZ) $(FUZZ_RELAY)
	@FUZZ=$(FUZZ) FUZZ_RELAY=$(FUZZ_RELAY) BUILD=$(BUILD) tests/fuzz/run.sh --campaign "$$FUZZ_SECONDS"

bench: all $(WORMSIM_MPI)
	@tests/check-deps.sh run $(ARCHES)
	@$(TEST_VARS) tests/bench.sh

# RUN= a run directory; make gdb and make heatmap default to the latest
# under RUNS_DIR (make gdb waits for a run started with GDB= just before).
NODE ?= $(GDB)
export RUN NODE
gdb:
	@tests/gdb-attach.sh "$$RUN" "$$NODE" $(NODE_ELF) $(GDB_ARGS)

clean:
	rm -rf $(BUILD)

# Experiments (experiments/, docs/results.md). SWEEP= a definition file or
# a name in experiments/; JOBS= runs at once (default nproc); SWEEP_ARGS=
# more options of experiments/sweep.sh (--max-nodes, --only, --out ...).
SWEEP       ?=
JOBS        ?=
METRIC      ?=           # make heatmap: flits unless given; make report: coll_ns unless given
DEF         ?=           # make report: the sweep's definition (default: the sweep's sweep.def, else experiments/NAME.sweep)
REPRODUCE   ?= thakur thakur-alloc torus000 tseng001 survey002 flood004 banyan004 families hwcoll002 pathmc002 adaptive
export SWEEP JOBS METRIC OUT DEF
sweep: all
	@tests/check-deps.sh run
	@tests/check-deps.sh sweep
	@[ -n "$$SWEEP" ] || { echo "make sweep: give SWEEP=<file or name>; names: $$(cd experiments && ls *.sweep | sed 's/\.sweep$$//' | tr '\n' ' ')" >&2; exit 2; }
	@$(TEST_VARS) experiments/sweep.sh $${JOBS:+--jobs "$$JOBS"} $(SWEEP_ARGS) "$$SWEEP"; \
	  rc=$$?; [ $$rc = 0 ] || [ $$rc = 3 ] || exit $$rc

# docs/results.md (experiments/report/; python3 experiments/report --help).
# Tseng's step table comes from the schedules' unit test, so it is built first.
results plots: $(BUILD)/tests/test_tseng
	@tests/check-deps.sh plot
	@tests/check-deps.sh report
	@TSENG_TEST=$(BUILD)/tests/test_tseng python3 -B experiments/report

# A report of any sweep: SWEEP= a name under results/, a sweep's
# directory, or the definition file make sweep took (its results/NAME); METRIC= the CSV column against the block length (coll_ns
# unless given); DEF= the sweep's definition file (its compare and paper
# lines), read by default from the sweep's sweep.def or experiments/NAME.sweep.
report: $(BUILD)/tests/test_tseng
	@tests/check-deps.sh plot
	@tests/check-deps.sh report
	@TSENG_TEST=$(BUILD)/tests/test_tseng python3 -B experiments/report --sweep "$$SWEEP" \
	  $${METRIC:+--metric "$$METRIC"} $${DEF:+--def "$$DEF"}

reproduce: all
	@tests/check-deps.sh run
	@tests/check-deps.sh sweep
	@for s in $(REPRODUCE); do $(TEST_VARS) experiments/sweep.sh $${JOBS:+--jobs "$$JOBS"} $(SWEEP_ARGS) $$s; \
	  rc=$$?; [ $$rc = 0 ] || [ $$rc = 3 ] || exit 1; done
	@$(MAKE) --no-print-directory results

recheck: all
	@tests/check-deps.sh run
	@tests/check-deps.sh sweep
	@$(TEST_VARS) experiments/recheck.sh $(RECHECK_ARGS)

heatmap:
	@tests/check-deps.sh plot
	@experiments/heatmap.sh --metric "$${METRIC:-flits}" "$${RUN:-$$RUNS_DIR/latest}" $${OUT:+"$$OUT"}

# The delta preset's fit on the training cells of experiments/paper/thakur.csv
# (prints it; CALIBRATE_ARGS=--write stores it in presets/delta.conf).
calibrate-delta: all
	@tests/check-deps.sh run
	@$(TEST_VARS) experiments/calibrate.sh --preset presets/delta.conf --table experiments/paper/thakur.csv $(CALIBRATE_ARGS)
