#!/usr/bin/env bash
# audit_sites_selftest.sh: prove that tools/audit-sites can both fail and pass.
#
# We build tiny ELF files with a 16-slot paravirt_ops table and patch-site
# records made exactly as the kernel's PARAVIRT_SITE macros make them, and
# check the verdict we know is right:
#   good       every hot-slot use inside a site of its slot          -> 0
#   unpatched  `call *paravirt_ops+20` outside any site              -> 1
#   cold       a call through slot 10, which no record names         -> 0
#   wrongtype  `jmp *%cs:paravirt_ops+24` in a site recorded as 5    -> 1
#   norecords  calls through the table, no .parainstructions at all  -> 2
# plus look-alikes that must not count as uses: an immediate
# ($paravirt_ops+20) and an indexed load (paravirt_ops(,%eax,4)).

set -u

TOOL="$(cd "$(dirname "$0")/.." && pwd)/tools/audit-sites"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0

pass() { echo "PASS audit-sites: $*"; }
fail() { echo "FAIL audit-sites: $*"; failures=$((failures + 1)); }

# The table: 16 four-byte slots, sized so the tool knows where it ends.
TABLE='
    .data
    .globl paravirt_ops
    .type paravirt_ops, @object
    .size paravirt_ops, 64
paravirt_ops:
    .fill 16, 4, 0
    .text
'

# site SLOT INSNS: a patch site recorded as SLOT (like PARAVIRT_ASM_SITE).
site() {
    cat <<EOF
771: $2
772:
    .pushsection .parainstructions, "a"
    .balign 4
    .long 771b
    .byte $1
    .byte 772b - 771b
    .short 1
    .popsection
EOF
}

# The code every case but norecords starts with: hot slots 5 and 6 used
# properly, in both site shapes, and uses that are not fixed-slot memory.
GOOD_BODY="
    .globl good_function
good_function:
$(site 5 'pushl %ecx; call *paravirt_ops+20; popl %ecx')
$(site 6 'jmp *%cs:paravirt_ops+24')
    movl \$paravirt_ops+20, %eax
    movl paravirt_ops(,%eax,4), %edx
    ret
"

# build NAME: assemble $WORK/NAME.S and link it the way a kernel is linked.
build() {
    gcc -m32 -c "$WORK/$1.S" -o "$WORK/$1.o" &&
        ld -m elf_i386 -e good_function -Ttext=0x100000 -o "$WORK/$1.elf" "$WORK/$1.o"
}

# expect NAME STATUS WHAT [PATTERN]: run the tool on NAME.elf; demand the
# exit status and, if given, a line of output matching PATTERN.
expect() {
    local name=$1 want=$2 what=$3 pattern=${4:-}
    if ! build "$name"; then
        fail "$what: could not build $name.elf"
        return
    fi
    local output status
    output="$("$TOOL" "$WORK/$name.elf" 2>&1)"
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

# --- 1. all hot uses inside their sites: clean ------------------------------
cat >"$WORK/good.S" <<EOF
$TABLE
$GOOD_BODY
EOF
expect good 0 "good: every hot use inside its site" \
    "0 violations \(2 sites, 2 hot slots, 2 table references inside sites\)"

# --- 2. a plain table call to a hot slot outside any site -------------------
cat >"$WORK/unpatched.S" <<EOF
$TABLE
$GOOD_BODY
    .globl unpatched_function
unpatched_function:
    nop
    call *paravirt_ops+20
    ret
EOF
expect unpatched 1 "unpatched: plain call to hot slot 5 is caught" \
    "unpatched_function\+0x1 \(0x[0-9a-f]+\): call \*0x[0-9a-f]+ -- uses hot op slot 5 outside a patch site"

# --- 3. a cold slot (no record names it) may be called anywhere -------------
cat >"$WORK/cold.S" <<EOF
$TABLE
$GOOD_BODY
    .globl cold_function
cold_function:
    call *paravirt_ops+40
    pushl paravirt_ops+40
    ret
EOF
expect cold 0 "cold: slot 10 outside sites is allowed" "0 violations"

# --- 4. a hot use inside a site recorded for another slot -------------------
cat >"$WORK/wrongtype.S" <<EOF
$TABLE
$GOOD_BODY
    .globl wrongtype_function
wrongtype_function:
$(site 5 'jmp *%cs:paravirt_ops+24')
EOF
expect wrongtype 1 "wrongtype: slot 6 in a site recorded as slot 5 is caught" \
    "wrongtype_function\+0x0 .* -- uses hot op slot 6 outside a patch site"

# --- 5. no records: nothing to check against, so not a pass -----------------
cat >"$WORK/norecords.S" <<EOF
$TABLE
    .globl good_function
good_function:
    call *paravirt_ops+20
    ret
EOF
expect norecords 2 "norecords: no .parainstructions is an error" "no .parainstructions records"

if [ "$failures" -ne 0 ]; then
    echo "audit-sites selftest: $failures failure(s)"
    exit 1
fi
echo "audit-sites selftest: all cases passed"
