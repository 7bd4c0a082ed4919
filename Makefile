# wormsim: a bare-metal multicomputer emulator.
#   make            build the router/run tool and the node image
#   make run        run an app on an emulated machine (NODES= TOPO= DIMS= APP= ARGS= GDB=)
#   make test       host unit tests and QEMU boot-and-collect tests
#   make bench      wall-time and memory figures
#   make gdb NODE=k attach gdb-multiarch to a node started with GDB=k
#   make deps       install the Debian packages the project needs (root)

BUILD    ?= build
ARCH     ?= arm
CC       ?= cc
CROSS    ?= arm-none-eabi-

HOST_CFLAGS  = -std=gnu11 -O2 -g -Wall -Wextra -Werror=implicit-function-declaration
HOST_LIBS    = -ljansson
HOST_SRCS    = host/machine.c host/router.c host/ivshmem.c host/launch.c host/results.c
HOST_OBJS    = $(HOST_SRCS:%.c=$(BUILD)/%.o)

BOARD        = board/arm-virt
NODE_CC      = $(CROSS)gcc
NODE_CFLAGS  = --specs=picolibc.specs -march=armv7-a -marm -mfloat-abi=soft \
               -O2 -g -Wall -Wextra -ffunction-sections -fdata-sections \
               -Iboard -I$(BOARD) -Ikernel -Inetdev -Iapps
NODE_LDFLAGS = --specs=picolibc.specs -march=armv7-a -marm -mfloat-abi=soft \
               -nostartfiles -T linker/arm-virt.ld -Wl,--gc-sections
NODE_SRCS    = $(BOARD)/start.S $(BOARD)/board.c \
               $(wildcard kernel/*.c) $(wildcard netdev/*.c) $(wildcard apps/*.c)
NODE_OBJS    = $(patsubst %,$(BUILD)/$(ARCH)/%.o,$(NODE_SRCS))
NODE_ELF     = $(BUILD)/$(ARCH)/node.elf

UNIT_TESTS   = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

# The collective library (apps/coll/): all of it runs on the node; its pure
# parts (schedules, registry, app checks, pattern) are also built for the
# host, for the run tool's checks and the unit tests.
NODE_SRCS   += $(wildcard apps/coll/*.c)
COLL_HOST_SRCS = apps/app_check.c apps/pattern.c \
                 $(filter-out apps/coll/run.c apps/coll/apps.c,$(wildcard apps/coll/*.c))
HOST_OBJS   += $(COLL_HOST_SRCS:%.c=$(BUILD)/host-apps/%.o)
COLL_DEPS    = apps/restrict.h apps/apps.h apps/apps.def $(wildcard apps/coll/*.h apps/coll/*.def)

WORMSIM      = $(BUILD)/host/wormsim
RUNS_DIR    ?= runs
RUN_VARS     = $(if $(APP),--app '$(APP)') $(if $(NODES),--nodes '$(NODES)') \
               $(if $(TOPO),--topo '$(TOPO)') $(if $(DIMS),--dims '$(DIMS)') \
               $(if $(ARGS),--args '$(ARGS)') $(if $(GDB),--gdb '$(GDB)') \
               $(if $(PORT_MODEL),--port-model '$(PORT_MODEL)') --kernel $(NODE_ELF) --runs-dir '$(RUNS_DIR)'

.PHONY: all host node run test unit-test qemu-test bench gdb deps check-deps check-host-deps check-node-deps clean
all: host node

host: $(WORMSIM)
node: $(NODE_ELF)

check-host-deps:
	@tests/check-deps.sh host
check-node-deps:
	@tests/check-deps.sh node
check-deps:
	@tests/check-deps.sh all

deps:
	@tests/check-deps.sh install

$(BUILD)/host/%.o: host/%.c $(wildcard host/*.h) netdev/nic_shm.h apps/apps.def | check-host-deps
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/host-apps/%.o: %.c $(COLL_DEPS) | check-host-deps
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/host/wormsim.o $(NODE_OBJS): $(COLL_DEPS)
$(UNIT_TESTS): tests/unit/sched_sim.h $(COLL_DEPS)

$(WORMSIM): $(BUILD)/host/wormsim.o $(HOST_OBJS)
	$(CC) $(HOST_CFLAGS) $^ -o $@ $(HOST_LIBS)

$(BUILD)/$(ARCH)/%.o: % $(wildcard board/*.h $(BOARD)/*.h kernel/*.h netdev/*.h apps/*.h apps/*.def) | check-node-deps
	@mkdir -p $(dir $@)
	$(NODE_CC) $(NODE_CFLAGS) -c $< -o $@

$(NODE_ELF): $(NODE_OBJS) linker/arm-virt.ld
	$(NODE_CC) $(NODE_LDFLAGS) $(NODE_OBJS) -o $@

$(BUILD)/tests/%: tests/unit/%.c tests/unit/check.h $(HOST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Ihost $< $(HOST_OBJS) -o $@ $(HOST_LIBS)

run: all
	@tests/check-deps.sh run
	$(WORMSIM) $(RUN_VARS)

unit-test: host $(UNIT_TESTS)
	@tests/run-unit.sh $(UNIT_TESTS)

qemu-test: all
	@tests/check-deps.sh run
	@WORMSIM=$(WORMSIM) KERNEL=$(NODE_ELF) tests/qemu/run.sh

test: all $(UNIT_TESTS)
	@tests/check-deps.sh run
	@WORMSIM=$(WORMSIM) KERNEL=$(NODE_ELF) UNIT_TESTS="$(UNIT_TESTS)" tests/run-all.sh

bench: all
	@tests/check-deps.sh run
	@WORMSIM=$(WORMSIM) KERNEL=$(NODE_ELF) tests/bench.sh

RUN  ?= runs/latest
NODE ?= $(GDB)
gdb: node
	@tests/gdb-attach.sh '$(RUN)' '$(NODE)' $(NODE_ELF) $(GDB_ARGS)

clean:
	rm -rf $(BUILD)
