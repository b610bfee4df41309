#!/usr/bin/env bash
# audit_natives_selftest.sh: prove that tools/audit-natives can both fail and pass.
#
# The tool checks what no emulator shows (see its docstring).  Each case
# here plants one such bug in a copy of the real PARAVIRT=y kernel,
# build/pv386.elf, by overwriting a few bytes or renaming a symbol, and
# demands the exit status and the line that names it:
#   clean       the kernel as built                                   -> 0
#   wbinvd      native_wbinvd's wbinvd made two NOPs (an empty op)    -> 1
#   sync_core   native_sync_core's iret made a NOP (no serialization) -> 1
#   safe_halt   sti; hlt swapped to hlt; sti (sti's shadow lost)      -> 1
#   norow       native_halt renamed: a native_* the table lacks       -> 1
#   exinsn      rdmsr's __ex_table entry moved to the next insn       -> 1
#   exbefore    rdmsr's fixup pointing at rdmsr itself                -> 1
#   exoutside   rdmsr's fixup pointing into the next function         -> 1
#   noserial    the code writer's first sync_core call or jump made a
#               ret: it returns before serializing                    -> 1
#   nosync      every sync_core call or jump of the code writer NOPs  -> 1
#   nopv        the PARAVIRT=n kernel: no backend to audit            -> 2
#   missing     no such file                                          -> 2

set -u

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOL="$ROOT/tools/audit-natives"
KERNEL="$ROOT/build/pv386.elf"
NOPV_KERNEL="$ROOT/build/nopv/pv386.elf"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0

pass() { echo "PASS audit-natives: $*"; }
fail() { echo "FAIL audit-natives: $*"; failures=$((failures + 1)); }

for elf in "$KERNEL" "$NOPV_KERNEL"; do
    if [ ! -f "$elf" ]; then
        echo "FAIL audit-natives: $elf is missing; build it with make test"
        exit 1
    fi
done

# symbol NAME: the address of NAME in the kernel, in hex without 0x.
symbol() {
    nm "$KERNEL" | awk -v name="$1" '$3 == name { print $1; exit }'
}

# insn_at FUNCTION MNEMONIC [NTH]: the address (hex) of the NTH (default
# 1st) instruction MNEMONIC of FUNCTION in the kernel.
insn_at() {
    objdump -d -w --no-show-raw-insn "$KERNEL" |
        awk -v fn="<$1>:" -v mn="$2" -v nth="${3:-1}" '
            $2 == fn { inside = 1; next }
            /^[0-9a-f]+ </ { inside = 0 }
            inside && $2 == mn && ++seen == nth { sub(":", "", $1); print $1; exit }'
}

# file_offset ADDR: where the byte at address ADDR (hex) lies in the file.
file_offset() {
    local addr=$((16#$1)) idx name size vma lma offset rest
    while read -r idx name size vma lma offset rest; do
        [[ $idx =~ ^[0-9]+$ ]] || continue
        if ((addr >= 16#$vma && addr < 16#$vma + 16#$size)); then
            echo $((16#$offset + addr - 16#$vma))
            return
        fi
    done < <(objdump -h "$KERNEL")
}

# poke FILE ADDR BYTE...: overwrite bytes (hex pairs) at address ADDR (hex).
poke() {
    local file=$1 addr=$2 offset
    shift 2
    offset=$(file_offset "$addr")
    printf "$(printf '\\x%s' "$@")" |
        dd of="$file" bs=1 seek="$offset" conv=notrunc status=none
}

# le32 VALUE: VALUE (hex) as four little-endian hex bytes.
le32() {
    local v=$((16#$1))
    printf '%02x %02x %02x %02x' $((v & 255)) $((v >> 8 & 255)) \
        $((v >> 16 & 255)) $((v >> 24 & 255))
}

# extable_entry INSN: the address (hex) of the __ex_table entry whose insn
# field is INSN (hex).  An entry is two 32-bit words: insn, fixup.
extable_entry() {
    local want=$((16#$1)) start size insn fixup n=0
    read -r start size < <(objdump -h "$KERNEL" | awk '$2 == "__ex_table" { print $4, $3 }')
    while read -r insn fixup; do
        if ((16#$insn == want)); then
            printf '%x\n' $((16#$start + 8 * n))
            return
        fi
        n=$((n + 1))
    done < <(od -An -v -tx4 -w8 -j "$(file_offset "$start")" -N $((16#$size)) "$KERNEL")
}

# doctor NAME: a fresh copy of the kernel to plant a bug in.
doctor() {
    cp "$KERNEL" "$WORK/$1.elf"
    echo "$WORK/$1.elf"
}

# expect FILE STATUS WHAT [PATTERN]: run the tool; demand the exit status
# and, if given, a line of output matching PATTERN.
expect() {
    local file=$1 want=$2 what=$3 pattern=${4:-} output status
    output="$("$TOOL" "$file" 2>&1)"
    status=$?
    if [ "$status" -ne "$want" ]; then
        fail "$what: exit $status, want $want"
        printf '%s\n' "$output" | sed 's/^/    /'
    elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$output"; then
        fail "$what: exit $status but no line matching /$pattern/"
        printf '%s\n' "$output" | sed 's/^/    /'
    else
        pass "$what (exit $status)"
    fi
}

# --- 1. the kernel as built passes -------------------------------------------
expect "$KERNEL" 0 "clean: the built kernel" \
    "0 problems \(41 native_\* functions, 7 faulting instructions"

# --- 2. natives: each function holds its instruction ------------------------
elf=$(doctor wbinvd)
poke "$elf" "$(insn_at native_wbinvd wbinvd)" 90 90
expect "$elf" 1 "wbinvd: an empty native_wbinvd is caught" \
    '^.*: native_wbinvd: no `wbinvd`$'

elf=$(doctor sync_core)
poke "$elf" "$(insn_at native_sync_core iret)" 90
expect "$elf" 1 "sync_core: a native_sync_core without iret is caught" \
    '^.*: native_sync_core: no `pushf; push %cs; push \$imm; iret`$'

elf=$(doctor safe_halt)
poke "$elf" "$(insn_at native_safe_halt sti)" f4 fb
expect "$elf" 1 "safe_halt: hlt before sti is caught" \
    '^.*: native_safe_halt: no `sti; hlt`$'

elf="$WORK/norow.elf"
objcopy --redefine-sym native_halt=native_halt_again "$KERNEL" "$elf"
expect "$elf" 1 "norow: a native_* function without a table row is caught" \
    '^.*: native_halt_again: no row in audit-natives'"'"' table'
expect "$elf" 1 "norow: a table row without its function is caught" \
    '^.*: native_halt: in the table but not in the binary$'

# --- 3. extable: each faulting instruction has its entry --------------------
rdmsr=$(insn_at native_read_msr rdmsr)
entry=$(extable_entry "$rdmsr")
if [ -z "$entry" ]; then
    fail "extable: no __ex_table entry for rdmsr at $rdmsr in the built kernel"
else
    elf=$(doctor exinsn)
    poke "$elf" "$entry" $(le32 "$(printf '%x' $((16#$rdmsr + 2)))")
    expect "$elf" 1 "exinsn: an entry that misses rdmsr by one instruction is caught" \
        '^.*: native_read_msr\+0x[0-9a-f]+ \(0x'"$rdmsr"'\): `rdmsr` has no __ex_table entry$'

    elf=$(doctor exbefore)
    poke "$elf" "$(printf '%x' $((16#$entry + 4)))" $(le32 "$rdmsr")
    expect "$elf" 1 "exbefore: a fixup that does not skip rdmsr is caught" \
        '^.*: native_read_msr\+0x[0-9a-f]+ \(0x'"$rdmsr"'\): `rdmsr` has a fixup at 0x'"$rdmsr"', not an instruction after it'

    elf=$(doctor exoutside)
    poke "$elf" "$(printf '%x' $((16#$entry + 4)))" $(le32 "$(symbol native_write_msr)")
    expect "$elf" 1 "exoutside: a fixup in the next function is caught" \
        '^.*: native_read_msr\+0x[0-9a-f]+ .*has a fixup at 0x[0-9a-f]+, not an instruction after it in native_read_msr$'
fi

# --- 4. the code writer calls sync_core after its stores -------------------
# Every call or jump through the sync_core slot (as the clean run names
# it) in the code writer, .text.patch_text.
slot=$("$TOOL" "$KERNEL" | sed -n 's/.*sync_core is slot \([0-9]*\)).*/\1/p')
sync_operand=$(printf '*0x%x' $((16#$(symbol paravirt_ops) + 4 * ${slot:-0})))
sync_calls=$(objdump -d -w --no-show-raw-insn --start-address="0x$(symbol __patch_text_start)" \
                 --stop-address="0x$(symbol __patch_text_end)" "$KERNEL" |
             awk -v op="$sync_operand" '($2 == "call" || $2 == "jmp") && $3 == op {
                 sub(":", "", $1); print $1 }')
if [ -z "$slot" ] || [ -z "$sync_calls" ]; then
    fail "the code writer: no call through sync_core's slot (${slot:-?}) in the built kernel"
else
    first=$(head -n 1 <<<"$sync_calls")
    elf=$(doctor noserial)
    poke "$elf" "$first" c3 90 90 90 90 90
    expect "$elf" 1 "noserial: a code writer that returns before sync_core is caught" \
        "^.*\\(0x$first\\): \`ret\` leaves the code writer after the store at 0x[0-9a-f]+ without calling sync_core \\(slot $slot\\)\$"

    elf=$(doctor nosync)
    for call in $sync_calls; do
        poke "$elf" "$call" 90 90 90 90 90 90
    done
    expect "$elf" 1 "nosync: a code writer that never calls sync_core is caught" \
        "^.*: \`[a-z]+.*\` (leaves|runs off the end of) the code writer after the store at 0x[0-9a-f]+ without calling sync_core \\(slot $slot\\)\$"
fi

# --- 5. nothing to audit is an error, not a pass -----------------------------
expect "$NOPV_KERNEL" 2 "nopv: the PARAVIRT=n kernel has no backend to audit" \
    "no native_\* function found"
expect "$WORK/does-not-exist.elf" 2 "missing: no such file" "no such file"

if [ "$failures" -ne 0 ]; then
    echo "audit-natives selftest: $failures failure(s)"
    exit 1
fi
echo "audit-natives selftest: all cases passed"
