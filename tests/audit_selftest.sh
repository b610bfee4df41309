#!/usr/bin/env bash
# audit_selftest.sh: prove that tools/audit-privileged can both fail and pass.
#
# A checker that never fails is worthless, and one that always fails gets
# ignored.  So we build tiny ELF files whose correct verdict we know:
#   bad.elf    privileged `cli` in bad_function             -> exit 1
#   good.elf   privileged code only in native_good, plus a
#              .user.text section that runs `cli` in ring 3  -> exit 0
#   empty.elf  no privileged instruction anywhere            -> non-zero
#                                                              (vacuous scan)
#   plants.elf one function per instruction the audit names (every one
#              of tools/audit-privileged's lists, mov to and from %cr,
#              %db and %tr registers, sized and prefixed forms)    -> exit 1,
#              each named by its function and mnemonic
# and a few look-alike mnemonics (clc, cld, stos, in, out, sysenter) that
# must NOT be reported, since drivers and user code use them legitimately.

set -u

TOOL="$(cd "$(dirname "$0")/.." && pwd)/tools/audit-privileged"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0

pass() { echo "PASS audit: $*"; }
fail() { echo "FAIL audit: $*"; failures=$((failures + 1)); }

# build NAME: assemble $WORK/NAME.S and link it the way a kernel is linked.
build() {
    gcc -m32 -c "$WORK/$1.S" -o "$WORK/$1.o" &&
        ld -m elf_i386 -e native_good -Ttext=0x100000 -o "$WORK/$1.elf" "$WORK/$1.o"
}

# audit NAME: run the tool on NAME.elf; sets $status and $output.
audit() {
    output="$("$TOOL" "$WORK/$1.elf" 2>&1)"
    status=$?
}

# The allowed function every test ELF except the empty one starts with.
NATIVE_GOOD='
    .text
    .globl native_good
native_good:
    cli
    sti
    mov %cr0, %eax
    ret
'

# --- 1. a violation must be caught -----------------------------------------
cat >"$WORK/bad.S" <<EOF
$NATIVE_GOOD
    .globl bad_function
bad_function:
    nop
    cli
    ret

    .globl lookalikes
lookalikes:
    clc
    cld
    stosl
    rep stosb
    in \$0x60, %al
    out %al, \$0x80
    sysenter
    ret
EOF
if build bad; then
    audit bad
    violations=$(grep -c ': .*+0x[0-9a-f]* (0x[0-9a-f]*) in ' <<<"$output")
    if [ "$status" -eq 1 ] && grep -q 'bad_function+0x1 .*: cli$' <<<"$output"; then
        pass "bad.elf rejected, bad_function's cli reported"
    else
        fail "bad.elf: expected exit 1 naming bad_function/cli, got $status:"
        echo "$output"
    fi
    if [ "$violations" -eq 1 ]; then
        pass "look-alike instructions (clc, cld, stos, in, out, sysenter) not reported"
    else
        fail "bad.elf: expected exactly 1 violation, got $violations:"
        echo "$output"
    fi
else
    fail "could not build bad.elf"
fi

# --- 2. every instruction the audit names must be caught -------------------
# One function per planted instruction, `plant_ID`, holding it as its
# first instruction; the audit must name each one, at +0x0, with its
# mnemonic, and report nothing else.  ID|assembly|what objdump prints.
PLANTS='
cli|cli|cli
sti|sti|sti
hlt|hlt|hlt
clts|clts|clts
pushf|pushfl|pushf
popf|popfl|popf
pushfw|pushfw|pushfw
popfw|popfw|popfw
iret|iret|iret
iretw|iretw|iretw
sysexit|sysexit|sysexit
mov_from_cr0|mov %cr0, %eax|mov +%cr0,%eax
mov_to_cr0|mov %eax, %cr0|mov +%eax,%cr0
mov_from_cr2|mov %cr2, %ebx|mov +%cr2,%ebx
mov_to_cr2|mov %ebx, %cr2|mov +%ebx,%cr2
mov_from_cr3|mov %cr3, %ecx|mov +%cr3,%ecx
mov_to_cr3|mov %ecx, %cr3|mov +%ecx,%cr3
mov_from_cr4|mov %cr4, %edx|mov +%cr4,%edx
mov_to_cr4|mov %edx, %cr4|mov +%edx,%cr4
mov_from_dr0|mov %db0, %eax|mov +%db0,%eax
mov_to_dr1|mov %eax, %db1|mov +%eax,%db1
mov_from_dr2|mov %db2, %eax|mov +%db2,%eax
mov_to_dr3|mov %eax, %db3|mov +%eax,%db3
mov_from_dr6|mov %db6, %eax|mov +%db6,%eax
mov_to_dr7|mov %eax, %db7|mov +%eax,%db7
mov_from_tr6|mov %tr6, %eax|mov +%tr6,%eax
mov_to_tr7|mov %eax, %tr7|mov +%eax,%tr7
lgdt|lgdt (%eax)|lgdtl +\(%eax\)
lgdtw|lgdtw (%eax)|lgdtw +\(%eax\)
lidt|lidt (%eax)|lidtl +\(%eax\)
lldt|lldt %ax|lldt +%ax
ltr|ltr %ax|ltr +%ax
lmsw|lmsw %ax|lmsw +%ax
sgdt|sgdt (%eax)|sgdtl +\(%eax\)
sidt|sidt (%eax)|sidtl +\(%eax\)
sldt|sldt %ax|sldt +%ax
smsw|smsw %ax|smsw +%ax
str|str %ax|str +%ax
rdmsr|rdmsr|rdmsr
wrmsr|wrmsr|wrmsr
rdtsc|rdtsc|rdtsc
rdtscp|rdtscp|rdtscp
rdpmc|rdpmc|rdpmc
wbinvd|wbinvd|wbinvd
invd|invd|invd
invlpg|invlpg (%eax)|invlpg +\(%eax\)
cpuid|cpuid|cpuid
ds_cli|.byte 0x3e; cli|ds cli
'

# The plants must cover the audit's own lists: a mnemonic added there
# without a plant here would be claimed, but never shown to be caught.
listed=$(python3 - "$TOOL" <<'EOF'
import importlib.util, os, sys
from importlib.machinery import SourceFileLoader
sys.path.insert(0, os.path.dirname(sys.argv[1]))
loader = SourceFileLoader("audit_privileged", sys.argv[1])
tool = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
loader.exec_module(tool)
print(" ".join(sorted(tool.PLAIN_MNEMONICS | tool.SIZED_MNEMONICS)))
EOF
)
unplanted=""
for mnemonic in $listed; do
    grep -q "^$mnemonic|" <<<"$PLANTS" || unplanted="$unplanted $mnemonic"
done
if [ -n "$listed" ] && [ -z "$unplanted" ]; then
    pass "every mnemonic tools/audit-privileged lists has a plant"
else
    fail "mnemonics the audit lists but nothing plants:${unplanted:- (could not read the lists)}"
fi

{
    echo "$NATIVE_GOOD"
    while IFS='|' read -r id insn _; do
        [ -n "$id" ] || continue
        printf '    .globl plant_%s\nplant_%s:\n    %s\n    ret\n' "$id" "$id" "$insn"
    done <<<"$PLANTS"
} >"$WORK/plants.S"
if build plants; then
    audit plants
    planted=0 named=0
    while IFS='|' read -r id _ printed; do
        [ -n "$id" ] || continue
        planted=$((planted + 1))
        if grep -qE "^[^ ]*: plant_$id\+0x0 \(0x[0-9a-f]+\) in \.text: $printed$" <<<"$output"; then
            named=$((named + 1))
        else
            fail "plants.elf: planted $id, no line naming plant_$id+0x0: $printed"
        fi
    done <<<"$PLANTS"
    reported=$(grep -c ': .*+0x[0-9a-f]* (0x[0-9a-f]*) in ' <<<"$output")
    if [ "$status" -eq 1 ] && [ "$named" -eq "$planted" ] && [ "$reported" -eq "$planted" ]; then
        pass "each of the $planted planted instructions reported, by function and mnemonic"
    else
        fail "plants.elf: exit $status, $named of $planted named, $reported reported:"
        echo "$output"
    fi
else
    fail "could not build plants.elf"
fi

# --- 3. native_* and .user* code must be accepted --------------------------
cat >"$WORK/good.S" <<EOF
$NATIVE_GOOD
    .section .user.text, "ax"
    .globl user_probe
user_probe:
    cli
    ret
EOF
if build good; then
    audit good
    if [ "$status" -eq 0 ]; then
        pass "good.elf accepted (native_good allowed, .user.text skipped)"
    else
        fail "good.elf: expected exit 0, got $status:"
        echo "$output"
    fi
else
    fail "could not build good.elf"
fi

# --- 4. a scan that proves nothing must not pass ---------------------------
cat >"$WORK/empty.S" <<'EOF'
    .text
    .globl native_good
native_good:
    nop
    ret
EOF
if build empty; then
    audit empty
    if [ "$status" -ne 0 ]; then
        pass "empty.elf (no privileged instructions at all) rejected as vacuous"
    else
        fail "empty.elf: expected non-zero exit, got 0:"
        echo "$output"
    fi
else
    fail "could not build empty.elf"
fi

# --- 5. a missing input is an error, not a pass -----------------------------
audit does-not-exist
if [ "$status" -eq 2 ]; then
    pass "missing ELF reported as an error (exit 2)"
else
    fail "missing ELF: expected exit 2, got $status"
fi

if [ "$failures" -ne 0 ]; then
    echo "audit self-test: $failures failure(s)"
    exit 1
fi
echo "audit self-test: all passed"
