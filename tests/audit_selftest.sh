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

# --- 2. native_* and .user* code must be accepted --------------------------
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

# --- 3. a scan that proves nothing must not pass ---------------------------
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

# --- 4. a missing input is an error, not a pass -----------------------------
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
