# Makefile - builds, boots and tests pv386.
#
#   make [PARAVIRT=y|n]   build the kernel ELF (y: build/, n: build/nopv/)
#   make iso              GRUB rescue ISO (normal boot + test-suite entry)
#   make run [CPUS=N]     boot the ISO in QEMU, serial console on this terminal
#                         (CPUS: QEMU -smp, 1 by default; docs/smp.md)
#   make run-bochs        boot the ISO in Bochs, serial console on this terminal
#   make debug            QEMU paused with its gdb stub; gdb -x <build>/gdbinit
#   make test [LOAD=N]    build what it needs and run the fast tier of the suite,
#                         every area's fastest row (LOAD: N busy loops per core
#                         beside it, tools/load)
#   make check [LOAD=N]   build everything and run the whole suite, both tiers,
#                         then the matrix: what CI runs (.ci/run)
#   make test-matrix      the in-kernel suite on every machine it claims
#   make native-tests     build the native tests (patch engine, parsers, checks)
#                         (host-tests: the same, its former name)
#   make mutate-checks    delete each clause of the natively tested checks: a test must fail
#   make fuzz-multiboot   fuzz the Multiboot parser for FUZZ_TIME seconds (600)
#   make fuzz-cpu-tables  fuzz the firmware's CPU-table parser for FUZZ_TIME seconds (600)
#   make fuzz-pvrom       fuzz the ops ROM validator for FUZZ_TIME seconds (600)
#   make fuzz-syscalls    user/sysfuzz in QEMU for FUZZ_TIME seconds (600), seed FUZZ_SEED (1)
#   make fuzz-guest       the guest fuzzer against its host, the same way (tests/guestfuzz/)
#   make bench            instructions per paravirt op: inline, indirect, patched
#   make docs             docs/*.md filled in from this build: build/docs/
#   make web              pv386 in the browser: a static site in build/web/
#   make serve            serve build/web/ on 127.0.0.1 and print its address
#   make clean
#
# PARAVIRT=y (default) routes every privileged operation through
# struct paravirt_ops; PARAVIRT=n compiles the same wrappers to inline
# instructions.  The two builds live in separate folders so both can exist.

PARAVIRT ?= y
HZ       ?= 100
CPUS     ?= 1

ifeq ($(PARAVIRT),y)
BUILD    := build
PVFLAGS  := -DCONFIG_PARAVIRT
else ifeq ($(PARAVIRT),n)
BUILD    := build/nopv
PVFLAGS  :=
else
$(error PARAVIRT must be y or n)
endif

CC       := gcc
LD       := ld
# No libgcc: it assumes the stack calling convention, and -mregparm=3
# changes that for every call, library calls included (see math64.h).
CFLAGS   := -m32 -march=i386 -std=gnu11 -O2 -g -ffreestanding -fno-pic -fno-pie \
	    -nostdlib -fno-stack-protector -fno-asynchronous-unwind-tables \
	    -fno-omit-frame-pointer -mregparm=3 -mgeneral-regs-only \
	    -fno-tree-loop-distribute-patterns \
	    -Wall -Wextra -Werror -Iinclude -I$(BUILD)/include \
	    $(PVFLAGS) -DHZ=$(HZ) -MMD -MP
ASFLAGS  := $(filter-out -std=gnu11,$(CFLAGS)) -Wa,--noexecstack

# The kernel's rooms (README, "Layout").  arch/x86/paravirt/backends/rom/
# is not among them: the ops ROM is a binary of its own (below).
PARAVIRT_DIRS := arch/x86/paravirt arch/x86/paravirt/patch arch/x86/paravirt/backends
KERNEL_DIRS   := boot arch/x86/entry arch/x86/kernel arch/x86/kernel/firmware \
		 arch/x86/kernel/smp arch/x86/mm arch/x86/drivers \
		 arch/x86/host kernel kernel/shell tests/kernel
# Without the table there is nothing to fill, and no backend to fill it.
ifeq ($(PARAVIRT),y)
KERNEL_DIRS   += $(PARAVIRT_DIRS)
endif
SRCS     := $(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.c $(d)/*.S))
# ... but either kernel must know an ops ROM module is not a program.
ifeq ($(PARAVIRT),n)
SRCS     += arch/x86/paravirt/backends/rom_check.c
endif
SRCS     := $(filter-out arch/x86/kernel/asm-offsets.c,$(SRCS))
OBJS     := $(patsubst %,$(BUILD)/obj/%.o,$(basename $(SRCS))) \
	    $(BUILD)/obj/user_programs.o
OFFSETS  := $(BUILD)/include/generated/asm-offsets.h
KERNEL   := $(BUILD)/pv386.elf
ISO      := $(BUILD)/pv386.iso
TEST_ISO := $(BUILD)/pv386-test.iso

QEMU       := qemu-system-i386
QEMU_FLAGS := -m 128 -display none -no-reboot \
	      -device isa-debug-exit,iobase=0xf4,iosize=1

.PHONY: all iso run run-bochs debug test check test-matrix native-tests host-tests fuzz-multiboot fuzz-cpu-tables bench docs web serve clean build-deps
all: $(KERNEL)

# Install (or name) missing host tools before the first compile.  Order-only:
# it runs on every make (a fraction of a second) but never forces a rebuild.
build-deps:
	@tools/ensure-deps build

# asm-offsets: compile to assembly, keep the "->NAME VALUE" markers.
$(OFFSETS): arch/x86/kernel/asm-offsets.c $(wildcard include/asm/*.h) | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MF /dev/null -S -o $@.s $<
	@{ echo "/* generated from arch/x86/kernel/asm-offsets.c - do not edit */"; \
	   sed -n 's/.*->\([A-Za-z_0-9]*\) \$$\{0,1\}\([0-9-]*\).*/#define \1 \2/p' $@.s; } > $@
	@rm -f $@.s

# A change of flags (HZ=250, say) must rebuild everything: the objects
# depend on a file that changes only when the flags do.
FLAGS_FILE := $(BUILD)/.cflags
$(FLAGS_FILE): FORCE
	@mkdir -p $(dir $@)
	@echo '$(CFLAGS)' | cmp -s - $@ || echo '$(CFLAGS)' > $@
.PHONY: FORCE
$(OBJS) $(OFFSETS): $(FLAGS_FILE)

# Keep each test file's KTEST()s in source order in .ktests.
$(BUILD)/obj/tests/%.o: CFLAGS += -fno-toplevel-reorder

$(BUILD)/obj/%.o: %.c | $(OFFSETS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/%.o: %.S $(OFFSETS)
	@mkdir -p $(dir $@)
	$(CC) $(ASFLAGS) -c -o $@ $<

# User programs (user/*.c, one program each, with the library user/lib/)
# are ordinary ring-3 executables linked at 1 GiB.  Both kernels pack the
# same files into their read-only data (tools/gen-programs).
USER_DIR    := build/user
USER_CFLAGS := -m32 -march=i386 -O2 -g -ffreestanding -nostdlib -fno-pic -fno-pie \
	       -fno-stack-protector -fno-asynchronous-unwind-tables \
	       -Wall -Wextra -Werror -Iinclude -MMD -MP -Wa,--noexecstack
USER_PROGS  := $(basename $(notdir $(wildcard user/*.c)))
USER_ELFS   := $(patsubst %,$(USER_DIR)/%.elf,$(USER_PROGS))
USER_LIB    := $(patsubst user/lib/%,$(USER_DIR)/lib/%.o,\
	       $(basename $(wildcard user/lib/*.c user/lib/*.S))) \
	       $(USER_DIR)/lib/string.o

# The kernel's string routines are plain C with no kernel dependency:
# the user library compiles the same file rather than a copy of it.
$(USER_DIR)/lib/string.o: kernel/string.c | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c -o $@ $<

$(USER_DIR)/%.o: user/%.c | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c -o $@ $<

$(USER_DIR)/%.o: user/%.S | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c -o $@ $<

$(USER_DIR)/%.elf: $(USER_DIR)/%.o $(USER_LIB) user/user.ld
	$(LD) -m elf_i386 -T user/user.ld -o $@ $(USER_DIR)/lib/crt0.o $< \
	      $(filter-out %/crt0.o,$(USER_LIB))

# The kernel packs them stripped: symbols and debug information stay in
# build/user/NAME.elf, for gdb (and -initrd), and cost the kernel image
# nothing.  Make must keep those: they are not intermediate files.  Nor
# are their objects: deleted after a first build, they were built and
# linked again by the next (whose .d files name them), kernel and all.
.SECONDARY: $(USER_ELFS) $(USER_ELFS:.elf=.o) $(USER_LIB)
USER_PACKED := $(patsubst %,$(USER_DIR)/packed/%.elf,$(USER_PROGS))

$(USER_DIR)/packed/%.elf: $(USER_DIR)/%.elf
	@mkdir -p $(dir $@)
	strip -o $@ $<

$(BUILD)/user_programs.S: $(USER_PACKED) tools/gen-programs
	@mkdir -p $(dir $@)
	tools/gen-programs $(USER_PACKED) > $@

# Two links: the first one's code symbols become the symbol table
# (kernel/ksyms.c) of the second.  The table lies after all code, so no
# code address moves between the two; the check makes sure.
LINK := $(LD) -m elf_i386 -T linker.ld

$(BUILD)/ksyms-empty.S: tools/gen-ksyms
	@mkdir -p $(dir $@)
	tools/gen-ksyms < /dev/null > $@

$(BUILD)/pv386.stage1.elf: $(OBJS) $(BUILD)/obj/ksyms-empty.o linker.ld
	$(LINK) -o $@ $(OBJS) $(BUILD)/obj/ksyms-empty.o

$(BUILD)/ksyms.S: $(BUILD)/pv386.stage1.elf tools/gen-ksyms
	nm -n $< | tools/gen-ksyms > $@

$(BUILD)/obj/%.o: $(BUILD)/%.S
	@mkdir -p $(dir $@)
	$(CC) $(ASFLAGS) -c -o $@ $<

$(KERNEL): $(BUILD)/pv386.stage1.elf $(BUILD)/obj/ksyms.o
	$(LINK) -o $@ $(OBJS) $(BUILD)/obj/ksyms.o
	@nm -n $< | grep -i ' [tw] ' > $@.syms1; nm -n $@ | grep -i ' [tw] ' > $@.syms2
	@cmp -s $@.syms1 $@.syms2 || { echo "ksyms: code moved between links"; rm -f $@; exit 1; }
	@rm -f $@.syms1 $@.syms2

# The ops ROM (VMI-style, ABI in include/asm/rom.h): not part of the
# kernel but a binary of its own, position-independent, that a loader
# hands the kernel as a Multiboot module (pv=rom).  Linked at 0 with its
# relocations kept, so tools/rom-seal can refuse absolute addresses in
# its code before it flattens the image and writes the checksum.
ROM_OUT    := build/rom
ROM        := build/pvrom.bin
ROM_DIR    := arch/x86/paravirt/backends/rom
ROM_SRCS   := $(wildcard $(ROM_DIR)/*.c $(ROM_DIR)/*.S)
ROM_OBJS   := $(patsubst $(ROM_DIR)/%,$(ROM_OUT)/%.o,$(basename $(ROM_SRCS))) \
		$(ROM_OUT)/native_entry.o
ROM_CFLAGS := $(filter-out -fno-pic -fno-pie -I$(BUILD)/include -DCONFIG_PARAVIRT,$(CFLAGS)) \
		-fPIC -DCONFIG_PARAVIRT
ifeq ($(PARAVIRT),y)
all: $(ROM)
endif

$(ROM_OUT)/%.o: $(ROM_DIR)/%.c | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(ROM_CFLAGS) -c -o $@ $<

$(ROM_OUT)/%.o: $(ROM_DIR)/%.S | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -std=gnu11,$(ROM_CFLAGS)) -Wa,--noexecstack -c -o $@ $<

# iret and sysexit: the kernel's own file (its iret_fault: see rom/rom.ld).
$(ROM_OUT)/native_entry.o: arch/x86/paravirt/backends/native_entry.S | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -std=gnu11,$(ROM_CFLAGS)) -Wa,--noexecstack -c -o $@ $<

$(ROM_OUT)/rom.elf: $(ROM_OBJS) $(ROM_DIR)/rom.ld
	$(LD) -m elf_i386 -q --no-warn-rwx-segments -T $(ROM_DIR)/rom.ld -o $@ $(ROM_OBJS)

$(ROM): $(ROM_OUT)/rom.elf tools/rom-seal
	tools/rom-seal $< $@

# A third ISO for tests/run: the same kernel and menu, booting the
# "test suite, ops ROM backend" entry (the last one) without waiting.
ROM_TEST_ISO := $(BUILD)/pv386-rom-test.iso
ifeq ($(PARAVIRT),y)
iso: $(ROM_TEST_ISO)
endif

$(ROM_TEST_ISO): $(KERNEL) boot/grub.cfg $(ROM)
	@tools/ensure-deps iso
	@rm -rf $(BUILD)/iso-rom && mkdir -p $(BUILD)/iso-rom/boot/grub
	cp $(KERNEL) $(BUILD)/iso-rom/boot/pv386.elf
	cp $(ROM) $(BUILD)/iso-rom/boot/pvrom.bin
	sed -e "s/^set default=.*/set default=$$(($$(grep -c '^menuentry' boot/grub.cfg) - 1))/" \
	    -e 's/^set timeout=.*/set timeout=0/' boot/grub.cfg > $(BUILD)/iso-rom/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/iso-rom 2>/dev/null

# A fourth: boot/grub.cfg's entry that hosts the kernel as its own guest
# (guest=test guestexit, the kernel its module), booted without waiting:
# tests/run's guest-bochs-* (docs/guest.md).
GUEST_TEST_ISO := $(BUILD)/pv386-guest-test.iso
ifeq ($(PARAVIRT),y)
iso: $(GUEST_TEST_ISO)
endif

$(GUEST_TEST_ISO): $(KERNEL) boot/grub.cfg
	@tools/ensure-deps iso
	@rm -rf $(BUILD)/iso-guest && mkdir -p $(BUILD)/iso-guest/boot/grub
	cp $(KERNEL) $(BUILD)/iso-guest/boot/pv386.elf
	sed -e "s/^set default=.*/set default=$$(($$(grep '^menuentry' boot/grub.cfg | \
	    grep -n 'pv386 hosting pv386' | cut -d: -f1) - 1))/" \
	    -e 's/^set timeout=.*/set timeout=0/' boot/grub.cfg > $(BUILD)/iso-guest/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/iso-guest 2>/dev/null

# Two ISOs with the same kernel: the normal one boots to the idle loop by
# default; the test one boots its "test suite" entry without waiting.
iso: $(ISO) $(TEST_ISO)

$(ISO): $(KERNEL) boot/grub.cfg $(ROM)
	@tools/ensure-deps iso
	@rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	cp $(KERNEL) $(BUILD)/iso/boot/pv386.elf
	cp $(ROM) $(BUILD)/iso/boot/pvrom.bin
	cp boot/grub.cfg $(BUILD)/iso/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/iso 2>/dev/null

$(TEST_ISO): $(KERNEL) boot/grub.cfg $(ROM)
	@tools/ensure-deps iso
	@rm -rf $(BUILD)/iso-test && mkdir -p $(BUILD)/iso-test/boot/grub
	cp $(KERNEL) $(BUILD)/iso-test/boot/pv386.elf
	cp $(ROM) $(BUILD)/iso-test/boot/pvrom.bin
	sed -e 's/^set default=.*/set default=1/' -e 's/^set timeout=.*/set timeout=0/' \
	    boot/grub.cfg > $(BUILD)/iso-test/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/iso-test 2>/dev/null

# pv386's own boot loader (boot/loader/, layout in boot/loader/layout.h):
# stage 1 is the boot sector, stage 2 16-bit C and assembly; each is
# linked by its own script and flattened to a binary.  tools/mkbootimg
# puts them, a kernel header and the kernel (stripped: the floppy is
# small, and the kernel's own symbol table is in its data) on a 1.44 MB
# floppy or a small MBR disk, with the ops ROM after it as a module.  CMDLINE='...' sets the default line; the
# -test images boot `test`, for tests/run.
LOADER_OUT     := build/loader
LOADER_CFLAGS  := -m16 -march=i386 -Os -ffreestanding -fno-pic -fno-pie \
		  -fno-stack-protector -fno-asynchronous-unwind-tables \
		  -mregparm=3 -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
		  --param=min-pagesize=0 -Wall -Wextra -Werror -Iboot/loader -idirafter include -MMD -MP
# min-pagesize=0: the loader reads the BIOS data area and low memory by
# address, which gcc would otherwise take for null-pointer arithmetic.
LOADER_ASFLAGS := -m32 -Iboot/loader -Wa,--noexecstack -MMD -MP
STAGE2_OBJS    := $(patsubst boot/loader/%,$(LOADER_OUT)/%.o,$(basename \
		  $(filter-out boot/loader/stage1.S,$(wildcard boot/loader/*.S boot/loader/*.c))))
CMDLINE        ?=
FLOPPY         := $(BUILD)/pv386.img
DISK           := $(BUILD)/pv386-disk.img
TEST_IMAGES    := $(BUILD)/pv386-test.img $(BUILD)/pv386-disk-test.img
MKBOOTIMG       = tools/mkbootimg --stage1 $(LOADER_OUT)/stage1.bin \
		  --stage2 $(LOADER_OUT)/stage2.bin --kernel $(BUILD)/pv386-stripped.elf \
		  --module $(ROM)
IMAGE_DEPS     := $(LOADER_OUT)/stage1.bin $(LOADER_OUT)/stage2.bin \
		  $(BUILD)/pv386-stripped.elf tools/mkbootimg $(ROM)

.PHONY: floppy disk images
floppy: $(FLOPPY)
disk: $(DISK)
images: $(FLOPPY) $(DISK) $(TEST_IMAGES)

$(LOADER_OUT)/%.o: boot/loader/%.c | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(LOADER_CFLAGS) -c -o $@ $<

$(LOADER_OUT)/%.o: boot/loader/%.S | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(LOADER_ASFLAGS) -c -o $@ $<

$(LOADER_OUT)/stage1.elf: $(LOADER_OUT)/stage1.o boot/loader/stage1.ld
	$(LD) -m elf_i386 -T boot/loader/stage1.ld -o $@ $<

$(LOADER_OUT)/stage2.elf: $(STAGE2_OBJS) boot/loader/stage2.ld
	$(LD) -m elf_i386 -T boot/loader/stage2.ld -o $@ $(STAGE2_OBJS)

$(LOADER_OUT)/%.bin: $(LOADER_OUT)/%.elf
	objcopy -O binary -j .text -j .rodata -j .data $< $@

$(BUILD)/pv386-stripped.elf: $(KERNEL)
	strip -o $@ $<

# The default line is in the image: a new CMDLINE must rebuild it.
CMDLINE_FILE := $(BUILD)/.cmdline
$(CMDLINE_FILE): FORCE
	@mkdir -p $(dir $@)
	@echo '$(CMDLINE)' | cmp -s - $@ || echo '$(CMDLINE)' > $@

$(FLOPPY): $(IMAGE_DEPS) $(CMDLINE_FILE)
	$(MKBOOTIMG) --cmdline '$(CMDLINE)' --floppy $@

$(DISK): $(IMAGE_DEPS) $(CMDLINE_FILE)
	$(MKBOOTIMG) --cmdline '$(CMDLINE)' --disk $@

$(BUILD)/pv386-test.img: $(IMAGE_DEPS)
	$(MKBOOTIMG) --cmdline test --floppy $@

$(BUILD)/pv386-disk-test.img: $(IMAGE_DEPS)
	$(MKBOOTIMG) --cmdline test --disk $@

run: $(ISO)
	@tools/ensure-deps qemu
	$(QEMU) $(QEMU_FLAGS) -smp $(CPUS) -cdrom $(ISO) -serial mon:stdio

# Bochs writes COM1 to a file; follow it on the terminal (Ctrl-C ends both).
run-bochs: $(ISO)
	@tools/ensure-deps bochs
	@tools/run-bochs --timeout 0 $(ISO) $(BUILD)/bochs-serial.log & \
	 tail -F --pid=$$! $(BUILD)/bochs-serial.log 2>/dev/null

debug: $(KERNEL)
	@tools/ensure-deps qemu
	@sed 's|@KERNEL@|$(abspath $(KERNEL))|' tools/gdbinit.in > $(BUILD)/gdbinit
	@echo "QEMU is paused with its gdb stub on :1234. In another terminal:"
	@echo "    gdb -x $(BUILD)/gdbinit"
	$(QEMU) $(QEMU_FLAGS) -kernel $(KERNEL) -serial mon:stdio -s -S

# Native tests of the patch engine: the same paravirt/patch/engine.c and
# paravirt/patch/templates.S as the kernel, in a native program with sanitizers.
NATIVE_CC     := gcc
NATIVE_BASE_CFLAGS := -O2 -g -Wall -Wextra -Werror -no-pie -idirafter include \
		    -fno-sanitize-recover=all -Wa,--noexecstack
NATIVE_CFLAGS := $(NATIVE_BASE_CFLAGS) -fsanitize=address,undefined
NATIVE_TEST   := build/native/test_patch
NATIVE_SRCS   := $(wildcard tests/native/*.c) tests/native/runner/runner.c \
		 arch/x86/paravirt/patch/engine.c \
		 arch/x86/paravirt/patch/templates.S

# The Multiboot info parser, the same multiboot_parse.c and ram_map.c (and
# its sort.c) as the kernel: unit tests built like the patch engine's, and a libFuzzer
# target (clang) that tests/run runs briefly; fuzz-multiboot runs it for
# FUZZ_TIME seconds, keeping what it learns in build/native/fuzz-corpus.
MB_PARSER    := arch/x86/kernel/firmware/multiboot_parse.c kernel/ram_map.c kernel/sort.c
MB_HEADERS   := include/multiboot_parse.h include/ram_map.h include/bootinfo.h \
		include/sort.h include/types.h
MB_TEST      := build/native/test_multiboot
MB_TEST_SRCS := $(wildcard tests/native/multiboot/*.c) tests/native/runner/runner.c \
		tests/native/runner/notes.c $(MB_PARSER)
MB_FUZZ      := build/native/fuzz_multiboot
MB_FUZZ_SRCS := tests/native/multiboot/fuzz/fuzz_multiboot.c $(MB_PARSER)
MB_SEEDS     := tests/native/multiboot/fuzz/corpus
FUZZ_CC      := clang
FUZZ_CFLAGS  := -O1 -g -Wall -Wextra -Werror -idirafter include \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_TIME    ?= 600

native-tests: $(NATIVE_TEST) $(MB_TEST) $(MB_FUZZ)

# The target's former name, kept: scripts and fingers still type it.
.PHONY: host-tests
host-tests: native-tests

# The templates of load_tls and load_esp0 use the kernel's structure
# offsets: the same generated asm-offsets.h.
$(NATIVE_TEST): $(NATIVE_SRCS) tests/native/check.h tests/native/runner/runner.h \
	      include/asm/patch.h include/types.h $(OFFSETS) | build-deps
	@mkdir -p $(dir $@)
	$(NATIVE_CC) $(NATIVE_CFLAGS) -I$(BUILD)/include -o $@ $(NATIVE_SRCS)

$(MB_TEST): $(MB_TEST_SRCS) tests/native/multiboot/check.h tests/native/runner/runner.h \
	      tests/native/runner/notes.h $(MB_HEADERS) | build-deps
	@mkdir -p $(dir $@)
	$(NATIVE_CC) $(NATIVE_CFLAGS) -o $@ $(MB_TEST_SRCS)

$(MB_FUZZ): $(MB_FUZZ_SRCS) $(MB_HEADERS) | build-deps
	@tools/ensure-deps fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(MB_FUZZ_SRCS)

fuzz-multiboot: $(MB_FUZZ)
	@mkdir -p build/native/fuzz-corpus build/native/fuzz-crashes
	$(MB_FUZZ) -max_total_time=$(FUZZ_TIME) -max_len=4096 \
	    -artifact_prefix=build/native/fuzz-crashes/ build/native/fuzz-corpus $(MB_SEEDS)

# The firmware's CPU tables (ACPI MADT, MP table), the same cpu_tables.c
# as the kernel: unit tests on tables built by hand and captured from
# QEMU -smp 4, and a libFuzzer target that tests/run runs briefly;
# fuzz-cpu-tables runs it for FUZZ_TIME seconds, keeping what it learns
# in build/native/cpu-tables-corpus.
CT_PARSER    := arch/x86/kernel/firmware/cpu_tables.c
CT_HEADERS   := include/asm/cpu_tables.h include/types.h
CT_TEST      := build/native/test_cpu_tables
CT_TEST_SRCS := $(wildcard tests/native/cpu_tables/*.c) tests/native/runner/runner.c \
		tests/native/runner/notes.c $(CT_PARSER)
CT_FUZZ      := build/native/fuzz_cpu_tables
CT_FUZZ_SRCS := tests/native/cpu_tables/fuzz/fuzz_cpu_tables.c $(CT_PARSER)
CT_SEEDS     := tests/native/cpu_tables/fuzz/corpus

native-tests: $(CT_TEST) $(CT_FUZZ)

$(CT_TEST): $(CT_TEST_SRCS) tests/native/cpu_tables/check.h tests/native/runner/runner.h \
	    tests/native/runner/notes.h $(CT_HEADERS) | build-deps
	@mkdir -p $(dir $@)
	$(NATIVE_CC) $(NATIVE_CFLAGS) -o $@ $(CT_TEST_SRCS)

$(CT_FUZZ): $(CT_FUZZ_SRCS) $(CT_HEADERS) | build-deps
	@tools/ensure-deps fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(CT_FUZZ_SRCS)

fuzz-cpu-tables: $(CT_FUZZ)
	@mkdir -p build/native/cpu-tables-corpus build/native/cpu-tables-crashes
	$(CT_FUZZ) -max_total_time=$(FUZZ_TIME) -max_len=4096 \
	    -artifact_prefix=build/native/cpu-tables-crashes/ build/native/cpu-tables-corpus $(CT_SEEDS)

# The ops ROM validator, the same paravirt/backends/rom_check.c as the kernel: unit tests
# (one per kind of bad ROM, and the ROM the build made) and a libFuzzer
# target seeded with build/pvrom.bin; fuzz-pvrom runs it for FUZZ_TIME
# seconds, keeping what it learns in build/native/pvrom-corpus.
ROM_CHECK     := arch/x86/paravirt/backends/rom_check.c
ROM_HEADERS   := include/asm/rom.h include/types.h
ROM_TEST      := build/native/test_rom
ROM_TEST_SRCS := $(wildcard tests/native/rom/*.c) tests/native/runner/runner.c $(ROM_CHECK)
ROM_FUZZ      := build/native/fuzz_rom
ROM_FUZZ_SRCS := tests/native/rom/fuzz/fuzz_rom.c $(ROM_CHECK)
ROM_SEEDS     := build/native/pvrom-seeds

native-tests: $(ROM_TEST) $(ROM_FUZZ) $(ROM_SEEDS)/pvrom.bin

$(ROM_TEST): $(ROM_TEST_SRCS) tests/native/rom/rom_builder.h tests/native/runner/runner.h \
	       $(ROM_HEADERS) | build-deps
	@mkdir -p $(dir $@)
	$(NATIVE_CC) $(NATIVE_CFLAGS) -o $@ $(ROM_TEST_SRCS)

$(ROM_FUZZ): $(ROM_FUZZ_SRCS) $(ROM_HEADERS) | build-deps
	@tools/ensure-deps fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(ROM_FUZZ_SRCS)

$(ROM_SEEDS)/pvrom.bin: $(ROM)
	@mkdir -p $(dir $@)
	cp $< $@

.PHONY: fuzz-pvrom
fuzz-pvrom: $(ROM_FUZZ) $(ROM_SEEDS)/pvrom.bin
	@mkdir -p build/native/pvrom-corpus build/native/pvrom-crashes
	$(ROM_FUZZ) -max_total_time=$(FUZZ_TIME) -max_len=16448 \
	    -artifact_prefix=build/native/pvrom-crashes/ build/native/pvrom-corpus $(ROM_SEEDS)

# The host's checks of what a guest hands it (arch/x86/host/check.c, the
# same file as the kernel's): unit tests, and a libFuzzer target whose
# every accepted request must be safe to load for a ring-1 guest.
GUEST_CHECK      := arch/x86/host/check.c
GUEST_HEADERS    := include/asm/host_check.h include/asm/host.h arch/x86/host/host.h include/asm/segment.h \
		    include/asm/debug_regs.h include/bootinfo.h include/types.h include/elf.h
GUEST_TEST       := build/native/test_guest_check
GUEST_TEST_SRCS  := $(wildcard tests/native/guest/*.c) tests/native/runner/runner.c $(GUEST_CHECK)
GUEST_FUZZ       := build/native/fuzz_guest_check
GUEST_FUZZ_SRCS  := tests/native/guest/fuzz/fuzz_guest_check.c $(GUEST_CHECK)

native-tests: $(GUEST_TEST) $(GUEST_FUZZ)

$(GUEST_TEST): $(GUEST_TEST_SRCS) tests/native/runner/runner.h $(GUEST_HEADERS) | build-deps
	@mkdir -p $(dir $@)
	$(NATIVE_CC) $(NATIVE_CFLAGS) -o $@ $(GUEST_TEST_SRCS)

# Each clause of the checks above deleted in turn, one of their host
# tests must fail (tools/mutate-checks; tests/run's native-check-mutants).
.PHONY: mutate-checks
mutate-checks: native-tests
	tools/mutate-checks

$(GUEST_FUZZ): $(GUEST_FUZZ_SRCS) $(GUEST_HEADERS) | build-deps
	@tools/ensure-deps fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(GUEST_FUZZ_SRCS)

# The frames a guest takes from its host - its memory and its shadow
# page tables (memory.c, page_tables.c, shadow_share.c, shadow_cache.c, the same files
# as the kernel's) - natively, 32-bit as in the kernel, on a page
# allocator that refuses the n-th call for every n
# (tests/native/guest/shadow/): nothing freed twice or never handed out,
# nothing kept, no freed frame used, the quota's count right.
SHADOW_CODE      := arch/x86/host/memory.c arch/x86/host/page_tables.c \
		    arch/x86/host/shadow_share.c \
		    arch/x86/host/shadow_cache.c
SHADOW_TEST      := build/native/test_shadow_frames
SHADOW_TEST_SRCS := $(wildcard tests/native/guest/shadow/*.c) tests/native/runner/runner.c \
		    $(SHADOW_CODE)

SHADOW_TEST_DEPS := $(SHADOW_TEST_SRCS) tests/native/guest/shadow/fake_page_alloc.h \
		    tests/native/runner/runner.h $(GUEST_HEADERS) include/asm/paging.h \
		    include/asm/switcher.h include/page_alloc.h

# The same test without AddressSanitizer, for qemu-user (qemu-i386): a
# build machine whose kernel runs no 32-bit binary runs it there, where
# AddressSanitizer's shadow memory cannot be set up.  Freed frames are
# mapped PROT_NONE in both builds, so a use after free still faults.
SHADOW_TEST_USER := build/native/test_shadow_frames-qemu-user

native-tests: $(SHADOW_TEST) $(SHADOW_TEST_USER)

$(SHADOW_TEST): $(SHADOW_TEST_DEPS) | build-deps
	@mkdir -p $(dir $@)
	$(NATIVE_CC) -m32 $(NATIVE_CFLAGS) -o $@ $(SHADOW_TEST_SRCS)

$(SHADOW_TEST_USER): $(SHADOW_TEST_DEPS) | build-deps
	@mkdir -p $(dir $@)
	$(NATIVE_CC) -m32 $(NATIVE_BASE_CFLAGS) -fsanitize=undefined -o $@ $(SHADOW_TEST_SRCS)

# The system-call fuzzer (user/sysfuzz.c) for FUZZ_TIME seconds from
# seed FUZZ_SEED, in QEMU, through its ktest (tests/kernel/test_sysfuzz.c):
# the kernel reports on the serial console and leaves QEMU with 33 for
# a pass.  A mismatch line names the call, its arguments and the answer
# expected; the same seed replays the run.
FUZZ_SEED ?= 1
.PHONY: fuzz-syscalls
fuzz-syscalls: $(KERNEL)
	@tools/ensure-deps qemu
	@status=0; timeout $$(($(FUZZ_TIME) + 120)) $(QEMU) $(QEMU_FLAGS) -monitor none \
	    -serial stdio -kernel $(KERNEL) \
	    -append "test=sysfuzz sysfuzz=seed=$(FUZZ_SEED),seconds=$(FUZZ_TIME)" || status=$$?; \
	 if [ $$status -ne 33 ]; then \
	     echo "fuzz-syscalls: FAILED (QEMU exit status $$status; 33 is a pass)"; exit 1; fi; \
	 echo "fuzz-syscalls: passed, seed $(FUZZ_SEED), $(FUZZ_TIME) s"

# The guest fuzzer (tests/guestfuzz/, docs/tests.md): a small Multiboot
# kernel of its own that a host runs at ring 1 and that throws at it,
# from a seed, every int n, privileged instructions, far returns to any
# frame, segment loads, hypercalls, page-table edits and watchpoints.
# Built once for both kernels (it is a guest, not part of either) and
# packed, stripped, into the kernel's read-only data, where the host's
# ktest guest_fuzz (tests/kernel/test_guest_fuzz.c) starts it from,
# life after life, checking itself between its batches.  fuzz-guest
# runs it for FUZZ_TIME seconds from seed FUZZ_SEED in QEMU (FUZZ_LIFE:
# the first life, FUZZ_LIVES=1: that life alone, to replay one a failure
# names; FUZZ_FAMILIES: a mask of the families to probe, by hand only).
GUESTFUZZ_OUT    := build/guestfuzz
GUESTFUZZ_ELF    := $(GUESTFUZZ_OUT)/guestfuzz.elf
GUESTFUZZ_IMAGE  := $(GUESTFUZZ_OUT)/guestfuzz-stripped.elf
# Its printf is the kernel's vsprintf.c, built again with the guest's flags.
GUESTFUZZ_OBJS   := $(patsubst tests/guestfuzz/%,$(GUESTFUZZ_OUT)/%.o,$(basename \
		    $(wildcard tests/guestfuzz/*.c tests/guestfuzz/*.S))) \
		    $(GUESTFUZZ_OUT)/vsprintf.o
GUESTFUZZ_CFLAGS := -m32 -march=i386 -std=gnu11 -O2 -g -ffreestanding -fno-pic -fno-pie \
		    -nostdlib -fno-stack-protector -fno-asynchronous-unwind-tables \
		    -mregparm=3 -mgeneral-regs-only -fno-tree-loop-distribute-patterns \
		    -fno-builtin -Wall -Wextra -Werror -Iinclude -MMD -MP -Wa,--noexecstack
FUZZ_LIFE        ?= 0
FUZZ_LIVES       ?= 0
FUZZ_FAMILIES    ?= 4294967295

$(GUESTFUZZ_OUT)/%.o: tests/guestfuzz/%.c | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(GUESTFUZZ_CFLAGS) -c -o $@ $<

$(GUESTFUZZ_OUT)/vsprintf.o: kernel/vsprintf.c | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(GUESTFUZZ_CFLAGS) -c -o $@ $<

$(GUESTFUZZ_OUT)/%.o: tests/guestfuzz/%.S | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -std=gnu11,$(GUESTFUZZ_CFLAGS)) -c -o $@ $<

$(GUESTFUZZ_ELF): $(GUESTFUZZ_OBJS) tests/guestfuzz/guestfuzz.ld
	$(LD) -m elf_i386 --no-warn-rwx-segments -T tests/guestfuzz/guestfuzz.ld -o $@ \
	    $(GUESTFUZZ_OBJS)

$(GUESTFUZZ_IMAGE): $(GUESTFUZZ_ELF)
	strip -o $@ $<

$(BUILD)/obj/tests/kernel/guestfuzz_image.o: $(GUESTFUZZ_IMAGE)
$(BUILD)/obj/tests/kernel/guestfuzz_image.o: ASFLAGS += -DGUESTFUZZ_IMAGE='"$(GUESTFUZZ_IMAGE)"'

# The v86 bug programs (tests/v86bugs/, docs/v86-bugs.md): each a tiny
# Multiboot kernel of its own, rig.S linked with one case file, whose
# ring-3 iret a CPU answers with an exception and v86 with a panic of
# the emulator itself.  Built once for both kernels and part of neither,
# as the guest fuzzer is; tests/suite/v86bugs.py runs each in QEMU and
# in v86.
V86BUGS_OUT     := build/v86bugs
V86BUGS_CASES   := $(basename $(notdir $(wildcard tests/v86bugs/iret_*.S)))
V86BUGS_ELFS    := $(patsubst %,$(V86BUGS_OUT)/%.elf,$(V86BUGS_CASES))
V86BUGS_ASFLAGS := -m32 -march=i386 -ffreestanding -fno-pic -fno-pie -nostdlib \
		   -Iinclude -Wa,--noexecstack
ifeq ($(PARAVIRT),y)
all: $(V86BUGS_ELFS)
endif

$(V86BUGS_OUT)/%.o: tests/v86bugs/%.S | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(V86BUGS_ASFLAGS) -c -o $@ $<

$(V86BUGS_ELFS): $(V86BUGS_OUT)/%.elf: $(V86BUGS_OUT)/%.o $(V86BUGS_OUT)/rig.o \
		 tests/v86bugs/v86bugs.ld
	$(LD) -m elf_i386 --no-warn-rwx-segments -T tests/v86bugs/v86bugs.ld -o $@ \
	    $< $(V86BUGS_OUT)/rig.o

# The same bounded run as tests/run's guest-fuzz-y, from an ISO for
# Bochs (guest-fuzz-bochs-y-pentium): the "test suite" entry booted with
# the fuzzer's test instead of the whole suite.
GUESTFUZZ_ISO     := $(BUILD)/pv386-guestfuzz-test.iso
GUESTFUZZ_ISO_CMD := test=guest_fuzz guestfuzz=seed=2,seconds=40
ifeq ($(PARAVIRT),y)
iso: $(GUESTFUZZ_ISO)
endif

$(GUESTFUZZ_ISO): $(KERNEL) boot/grub.cfg
	@tools/ensure-deps iso
	@rm -rf $(BUILD)/iso-guestfuzz && mkdir -p $(BUILD)/iso-guestfuzz/boot/grub
	cp $(KERNEL) $(BUILD)/iso-guestfuzz/boot/pv386.elf
	sed -e 's/^set default=.*/set default=1/' -e 's/^set timeout=.*/set timeout=0/' \
	    -e 's|^\(\s*multiboot /boot/pv386.elf\) test$$|\1 $(GUESTFUZZ_ISO_CMD)|' \
	    boot/grub.cfg > $(BUILD)/iso-guestfuzz/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/iso-guestfuzz 2>/dev/null

.PHONY: fuzz-guest
fuzz-guest: $(KERNEL)
	@tools/ensure-deps qemu
	@status=0; timeout $$(($(FUZZ_TIME) + 120)) $(QEMU) $(QEMU_FLAGS) -monitor none \
	    -serial stdio -kernel $(KERNEL) \
	    -append "test=guest_fuzz guestfuzz=seed=$(FUZZ_SEED),seconds=$(FUZZ_TIME),life=$(FUZZ_LIFE),lives=$(FUZZ_LIVES),families=$(FUZZ_FAMILIES)" \
	    || status=$$?; \
	 if [ $$status -ne 33 ]; then \
	     echo "fuzz-guest: FAILED (QEMU exit status $$status; 33 is a pass): seed $(FUZZ_SEED)"; \
	     exit 1; fi; \
	 echo "fuzz-guest: passed, seed $(FUZZ_SEED), $(FUZZ_TIME) s"

# The suite's tiers (tests/suite/tiers.py, docs/tests.md).  test: the
# fast tier, which needs the kernels, the normal ISO and the native
# tests - no loader images, web site or docs.  check: everything, both
# tiers in one run (the longest rows first), then the matrix, which
# takes the result of each row tests/run has just run rather than run
# it again.  TEST_JOBS: builds and rows at once, one more than the cores
# (an emulator keeps at most one core busy, often less: see
# tests/suite/harness/frontend.py).  LOAD=N: N busy loops per core beside
# the rows.
ifndef TEST_JOBS
TEST_JOBS := $(shell echo $$(($$(nproc) + 1)))
endif
LOAD      ?= 0
SUBMAKE   := $(MAKE) --no-print-directory -j$(TEST_JOBS)

test:
	@tools/ensure-deps all
	$(SUBMAKE) PARAVIRT=y all $(ISO)
	$(SUBMAKE) PARAVIRT=n all
	$(SUBMAKE) native-tests
	$(SUBMAKE) PARAVIRT=y docs-logs
	tools/load $(LOAD) tests/run --tier fast -j$(TEST_JOBS) --junit build/test-logs/junit.xml

check:
	@tools/ensure-deps all
	$(SUBMAKE) PARAVIRT=y all iso images
	$(SUBMAKE) PARAVIRT=n all iso
	$(SUBMAKE) native-tests
	$(MAKE) --no-print-directory web
	$(MAKE) --no-print-directory docs
	@status=0; \
	 tools/load $(LOAD) tests/run -j$(TEST_JOBS) --junit build/test-logs/junit.xml || status=$$?; \
	 tools/load $(LOAD) tests/matrix -j$(TEST_JOBS) \
	     --junit build/test-logs/matrix-junit.xml || status=$$?; \
	 exit $$status

# The in-kernel suite on every machine pv386 claims (tests/matrix): CPU
# models, RAM sizes, loaders, forced CPU generations.  Alone, it runs
# each row itself; after tests/run (as in check), it takes the results
# of the rows tests/run has just run.
test-matrix:
	@tools/ensure-deps all
	$(SUBMAKE) PARAVIRT=y all iso images
	$(SUBMAKE) PARAVIRT=n all iso
	tools/load $(LOAD) tests/matrix -j$(TEST_JOBS) --junit build/test-logs/matrix-junit.xml

# Instructions per paravirt op, inline vs indirect vs patched (tools/bench),
# and the page's ready time and weight in Chromium.
bench:
	@tools/ensure-deps build qemu web
	$(MAKE) --no-print-directory PARAVIRT=y all
	$(MAKE) --no-print-directory PARAVIRT=n all
	$(MAKE) --no-print-directory web
	tools/bench

# The docs (docs/*.md): the sources with what they quote filled in from
# this build - patchlog lines, the op table, the kernel's registries,
# bench figures, a boot log, shell sessions, the ops ROM's header
# (tools/docs-fill) - the diagrams drawn by dot, the bench charts
# (tools/docs-bench-chart) and a picture of the VGA screen after the
# steps of docs/screen-session (tools/docs-boot).  Every output depends on
# what it quotes, so a changed kernel redraws it; tests/run's docs test
# fails on a missing or stale one.
DOCS_OUT     := build/docs
DOCS_LOGS    := $(DOCS_OUT)/logs
DOCS_KERNELS := build/pv386.elf build/nopv/pv386.elf
# Every docs/*.md is a source (the chapters, the walkthrough, the exercises).
DOCS_FILES   := $(patsubst docs/%.md,$(DOCS_OUT)/%.md,$(wildcard docs/*.md)) \
		$(DOCS_OUT)/patching.svg $(DOCS_OUT)/hypercall.svg \
		$(DOCS_OUT)/bench-ops.svg $(DOCS_OUT)/bench-paths.svg $(DOCS_OUT)/screen.png
# What docs-boot makes of the kernel's boots and shell sessions (the
# screen's log comes with its picture).
DOCS_BOOTS   := $(DOCS_LOGS)/patchlog.log $(DOCS_LOGS)/patchlog-486.log \
		$(DOCS_LOGS)/patchlog-rom.log $(DOCS_OUT)/screen.png $(DOCS_LOGS)/trace.log
DOCS_QUOTED  := $(DOCS_BOOTS) build/bench.json \
		$(DOCS_KERNELS) build/pvrom.bin docs/screen-session docs/trace-session \
		include/asm/paravirt.h include/asm/rom.h kernel/main.c \
		arch/x86/paravirt/switch.c arch/x86/paravirt/patch/patch.c arch/x86/mm/paging.c \
		tools/docs-fill tools/binscan.py

docs:
	@tools/ensure-deps build qemu docs web
	$(MAKE) --no-print-directory PARAVIRT=y all
	$(MAKE) --no-print-directory PARAVIRT=n all
	$(MAKE) --no-print-directory PARAVIRT=y docs-files

.PHONY: docs-files docs-logs
docs-files: $(DOCS_FILES)

# What the docs quote of the kernel's boots and shell sessions, without
# the bench: make test checks every docs/ source against these
# (tests/suite/docs.py's docs-source-y).
docs-logs: $(DOCS_BOOTS)

build/bench.json: $(DOCS_KERNELS) tools/bench tools/web-bench | web
	tools/bench

$(DOCS_LOGS)/patchlog.log: build/pv386.elf tools/docs-boot
	tools/docs-boot --kernel $< --append patchlog --serial $@

$(DOCS_LOGS)/patchlog-486.log: build/pv386.elf tools/docs-boot
	tools/docs-boot --kernel $< --cpu 486 --append patchlog --serial $@

# The ops ROM's sites: direct calls into the ROM's room.
$(DOCS_LOGS)/patchlog-rom.log: build/pv386.elf build/pvrom.bin tools/docs-boot
	tools/docs-boot --kernel $< --initrd build/pvrom.bin --append "pv=rom patchlog" \
	    --serial $@

# One boot makes both the picture and the log the walkthrough quotes (the
# picture is written last, so what quotes the log depends on the picture).
$(DOCS_OUT)/screen.png $(DOCS_LOGS)/screen.log &: build/pv386.elf docs/screen-session \
						  tools/docs-boot
	tools/docs-boot --kernel $< --session docs/screen-session \
	    --serial $(DOCS_LOGS)/screen.log --screen $(DOCS_OUT)/screen.png

# A shell session on the trace backend and live switching, typed as on the
# screen: what the walkthrough quotes of pvops and sites.
$(DOCS_LOGS)/trace.log: build/pv386.elf docs/trace-session tools/docs-boot
	tools/docs-boot --kernel $< --session docs/trace-session --serial $@

# docs-fill also writes which files it read (build/docs/deps/NAME.md.d):
# a chapter that quotes a header, the suite or a user program is made
# again when that changes.
$(DOCS_OUT)/%.md: docs/%.md $(DOCS_QUOTED)
	@mkdir -p $(DOCS_OUT)/deps
	tools/docs-fill --deps $(DOCS_OUT)/deps/$*.md.d $@ $< > $@.tmp && mv $@.tmp $@

-include $(wildcard $(DOCS_OUT)/deps/*.d)

$(DOCS_OUT)/patching.svg: docs/patching.dot $(DOCS_QUOTED)
	tools/docs-fill $< > $(DOCS_OUT)/patching.dot
	dot -Tsvg -o $@ $(DOCS_OUT)/patching.dot

$(DOCS_OUT)/hypercall.svg: docs/hypercall.dot $(DOCS_QUOTED) include/asm/switcher.h \
			    include/asm/hypercall.h
	tools/docs-fill $< > $(DOCS_OUT)/hypercall.dot
	dot -Tsvg -o $@ $(DOCS_OUT)/hypercall.dot

$(DOCS_OUT)/bench-%.svg: build/bench.json tools/docs-bench-chart
	tools/docs-bench-chart $* $< $@

# pv386 in the browser (boot/web/, docs/web.md): the page, v86 and xterm.js
# from build/npm/ (boot/web/package-lock.json), Debian's BIOS images and
# this build's kernel (ELF symbols stripped, its ksyms table kept: `sites`
# names functions) and ops ROM, as a static site any file server serves.
# Always the PARAVIRT=y kernel, whatever PARAVIRT says: the page shows the
# table.  serve: on 127.0.0.1, port $$PORT or 8386 (tools/web-serve).
WEB_OUT := build/web

web:
	@tools/ensure-deps build web
	$(MAKE) --no-print-directory PARAVIRT=y all build/pv386-stripped.elf build/pvrom.bin
	tools/web-build $(WEB_OUT)

serve: web
	tools/web-serve $(WEB_OUT)

clean:
	rm -rf build

-include $(OBJS:.o=.d) $(GUESTFUZZ_OBJS:.o=.d) $(ROM_OBJS:.o=.d) $(USER_LIB:.o=.d) $(USER_ELFS:.elf=.d) \
	 $(STAGE2_OBJS:.o=.d) $(LOADER_OUT)/stage1.d
