#!/bin/sh
# tests/tools/mutate-t.sh - tools/mutate.py, the mutation tester (doc/testing.md):
#   - on softmma's own map: the mutants of a seed are the same on every run,
#     another seed draws others, a sample is a part of the whole list, every
#     kind of mutant of the issue is made, IDs name their line;
#   - on a miniature project built in a scratch directory (a library of three
#     functions and one TAP test, laid out as softmma's build lays out its
#     objects): a mutant the test catches is killed, a mutant of code no
#     object keeps is equivalent by identical object code, one the test does
#     not reach survives and is listed, one of tests/mutants.equiv is counted
#     apart, the file is restored after the run, --bar fails a low score;
#   - bad arguments and a malformed map are refused with exit 2 and a message
#     that names the argument or the file and line.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

py=${PYTHON:-python3}
[ "$py" != : ] || py=python3
command -v "$py" >/dev/null 2>&1 || skip_all "no Python 3"
command -v cc >/dev/null 2>&1 || skip_all "no C compiler (cc)"
mut="$py $SMMA_SRCDIR/tools/mutate.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smma-mutate-t.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

plan_lazy

# ---------------------------------------------------------------- softmma's mutants

$mut list --seed 7 --sample 40 >"$tmp/a" 2>&1
rc=$?
$mut list --seed 7 --sample 40 >"$tmp/b" 2>&1
[ $rc -eq 0 ] && [ "$(grep -c . "$tmp/a")" -eq 160 ] && cmp -s "$tmp/a" "$tmp/b"
ok $? "list --seed 7 --sample 40: 40 mutants of each of the 4 areas, the same on a second run"
$mut list --seed 8 --sample 40 >"$tmp/c" 2>&1
! cmp -s "$tmp/a" "$tmp/c"
ok $? "another seed draws other mutants"
$mut list --sample 0 >"$tmp/all" 2>&1
$mut list --seed 7 --sample 40 --area plan >"$tmp/p" 2>&1
n_all=$(grep -c . "$tmp/all")
n_in=$(grep -cxF -f "$tmp/p" "$tmp/all")
[ "$n_all" -gt 10000 ] && [ "$n_in" -eq 40 ] && grep -qxF -f "$tmp/p" "$tmp/a"
ok $? "a sample is a part of the whole list ($n_all mutants), drawn per area"
kinds=$(cut -f1 "$tmp/all" | sed 's/.*://' | sort -u | tr '\n' ' ')
missing=
for k in add sub mul div lt le gt ge eq ne land lor and or shl shr c+1 c-1 shift+1 \
    shift-1 widen narrow swap del nonot; do
    case " $kinds" in *" $k "*) ;; *) missing="$missing $k" ;; esac
done
[ -z "$missing" ]
ok $? "every kind of mutant is made (missing:${missing:- none})"
id=$(grep ':c+1' "$tmp/all" | head -1 | cut -f1)
$mut show "$id" >"$tmp/show" 2>&1
file=${id%%:*}
line=$(echo "$id" | cut -d: -f2)
[ "$(sed -n 2p "$tmp/show")" = "- $(sed -n "${line}p" "$SMMA_SRCDIR/$file")" ] &&
    sed -n 3p "$tmp/show" | grep -q '^+ '
ok $? "show $id prints its line before and after"

# ---------------------------------------------------------------- a miniature project

proj=$tmp/proj
mkdir -p "$proj/lib" "$proj/t" "$proj/tests"
# lib/add.c: add is tested, clamp only at 20 and 3 (so > and >= agree), dead
# is static and unused (no object keeps it), twice is never called.
cat >"$proj/lib/add.c" <<'EOF'
int add(int a, int b) { return a + b; }
int clamp(int x) { return x > 10 ? 10 : x; }
static __attribute__((unused)) int dead(int x) { return x * 3; }
int twice(int x) { return x << 1; }
EOF
cat >"$proj/t/add-t.c" <<'EOF'
#include <stdio.h>
int add(int, int);
int clamp(int);
int main(void)
{
    printf("1..2\n");
    printf("%s 1 - add\n", add(2, 3) == 5 ? "ok" : "not ok");
    printf("%s 2 - clamp\n", clamp(20) == 10 && clamp(3) == 3 ? "ok" : "not ok");
    return 0;
}
EOF
cat >"$proj/tests/mutants.map" <<'EOF'
[lib]
lib/add.c: t/add-t
EOF
echo 'lib/add.c:2:29:ge clamp(10) is 10 either way' >"$proj/tests/mutants.equiv"
# configure writes a Makefile that builds as softmma's libtool build does:
# PIC objects in .libs/, dependency files in .deps/, a shared library the
# test links by rpath, and the link command printed as libtool prints it.
cat >"$proj/configure" <<'EOF'
#!/bin/sh
src=$(cd "$(dirname "$0")" && pwd)
cflags=-O2
for a in "$@"; do case $a in CFLAGS=*) cflags=${a#CFLAGS=} ;; esac; done
cat >Makefile <<MK
srcdir = $src
CFLAGS = $cflags
libsoftmma_la_OBJECTS = lib/add.lo
t_add_t_OBJECTS = t/add-t.o
t_add_t_LDADD = libsoftmma.la
all: t/add-t
libsoftmma.la: lib/add.lo
	@echo "libtool: link: cc -shared -fPIC lib/.libs/add.o -o .libs/libsoftmma.so"
	@mkdir -p .libs && cc -shared -fPIC lib/.libs/add.o -o .libs/libsoftmma.so && touch \$@
lib/add.lo: \$(srcdir)/lib/add.c
	@mkdir -p lib/.libs lib/.deps
	@cc \$(CFLAGS) -fPIC -MD -MF lib/.deps/add.Plo -MT lib/add.lo -c \$(srcdir)/lib/add.c \\
	  -o lib/.libs/add.o && touch \$@
t/add-t.o: \$(srcdir)/t/add-t.c
	@mkdir -p t/.deps
	@cc \$(CFLAGS) -MD -MF t/.deps/add-t.Po -MT t/add-t.o -c \$(srcdir)/t/add-t.c -o \$@
t/add-t: t/add-t.o libsoftmma.la
	@cc -o \$@ t/add-t.o -L.libs -lsoftmma -Wl,-rpath,\$\$PWD/.libs
distdir:
	mkdir -p \$(distdir) && cp -pR \$(srcdir)/configure \$(srcdir)/lib \$(srcdir)/t \\
	  \$(srcdir)/tests \$(distdir)/
MK
EOF
chmod +x "$proj/configure"
(cd "$proj" && ./configure) >"$tmp/conf.out" 2>&1
ok $? "the miniature project configures"

# run_proj ARGS...: tools/mutate.py run on the miniature project.
run_proj() {
    $mut --srcdir "$proj" run --builddir "$proj" --work "$tmp/work" --jobs 1 \
        --results "$tmp/res" "$@" >"$tmp/out" 2>&1
}
result() {
    awk -v id="$1" '$1 == id { print $2 }' "$tmp/res"
}

cp "$proj/lib/add.c" "$tmp/add.orig"
run_proj --mutant lib/add.c:1:34:sub --mutant lib/add.c:3:59:div \
    --mutant lib/add.c:4:32:shift+1 --mutant lib/add.c:2:29:ge
rc=$?
[ $rc -eq 0 ]
ok $? "run: four mutants of the miniature project, exit 0"
is killed "$(result lib/add.c:1:34:sub)" "a + b -> a - b is killed by t/add-t"
is equivalent "$(result lib/add.c:3:59:div)" \
    "x * 3 -> x / 3 in the unused static function: identical object code, equivalent"
is survived "$(result lib/add.c:4:32:shift+1)" "x << 1 -> x << 2 in the uncalled twice survives"
is listed "$(result lib/add.c:2:29:ge)" "the mutant of tests/mutants.equiv is counted apart"
grep -q '^lib: killed 1 of 2 (50.0%) (0 by the time cap); equivalent 2 (1 identical objects, 1 listed); 0 stillborn$' "$tmp/out"
ok $? "the area's line: killed 1 of 2, the equivalents apart"
grep -q "^  lib/add.c:4:32:shift+1  '1' -> '2'$" "$tmp/out"
ok $? "the survivor is listed by its ID"
cmp -s "$proj/lib/add.c" "$tmp/add.orig" &&
    cmp -s "$tmp/work/w0/src/lib/add.c" "$tmp/add.orig"
ok $? "the source tree and the scratch copy hold the original afterwards"
run_proj --mutant lib/add.c:1:34:sub --mutant lib/add.c:4:32:shift+1 --bar lib=90
rc=$?
[ $rc -eq 1 ] && grep -q 'FAILED: below the bar: lib 50.0% < 90%' "$tmp/out"
ok $? "--bar lib=90 fails a score of 50% (exit $rc)"
run_proj --sample 0
rc=$?
n=$(grep -c . "$tmp/res")
[ $rc -eq 0 ] && [ "$n" -eq "$($mut --srcdir "$proj" list --sample 0 | grep -c .)" ] &&
    ! grep -q 'stillborn	' "$tmp/res"
ok $? "every mutant of the file runs ($n), none fails to build"
[ "$(result lib/add.c:3:59:div)" = equivalent ] && [ "$(result lib/add.c:1:34:sub)" = killed ]
ok $? "the same results in a run of every mutant"

# ---------------------------------------------------------------- gpu-run

# An archive as gpu-build writes it, with shell scripts for programs: the
# unmutated test passes, mutant 01's fails a point, 02's passes.
g=$tmp/gpu/mutants-gpu
mkdir -p "$g/base" "$g/01" "$g/02"
printf '#!/bin/sh\necho 1..2; echo ok 1; echo "ok 2 - kernel $SMMA_GEMM_KERNEL"\n' >"$g/base/k-t"
printf '#!/bin/sh\necho 1..2; echo ok 1; echo not ok 2\n' >"$g/01/k-t"
cp "$g/base/k-t" "$g/02/k-t"
{
    echo '# tools/mutate.py gpu-build --seed 1 --sample 2 --cuda-arch sm_90a'
    printf '01\tgpu/x.cu:1:2:add\tbuilt\tSMMA_GEMM_KERNEL=x tests/gpu/k-t@0\t+ -> -\n'
    printf -- '-\tgpu/x.cu:3:4:c+1\tequivalent\ttests/gpu/k-t@0\t1 -> 2\n'
    printf '02\tgpu/x.cu:5:6:sub\tbuilt\tSMMA_GEMM_KERNEL=x tests/gpu/k-t@0\t- -> +\n'
} >"$g/manifest.tsv"
(cd "$tmp/gpu" && "$py" -c 'import lzma, sys, tarfile
with lzma.open("a.tar.xz", "w") as xz, tarfile.open(fileobj=xz, mode="w|") as t:
    t.add("mutants-gpu")')
$mut gpu-run "$tmp/gpu/a.tar.xz" --work "$tmp/gpu/run" >"$tmp/gpu.out" 2>&1
rc=$?
[ $rc -eq 0 ] &&
    grep -q '^gpu: killed 1 of 2 (50.0%) (0 by the time cap); 1 equivalent, 0 stillborn$' \
        "$tmp/gpu.out" && grep -q '^  gpu/x.cu:5:6:sub  - -> +$' "$tmp/gpu.out"
ok $? "gpu-run: the unmutated program first, then mutant 01 killed, 02 survived (exit $rc)" ||
    sed 's/^/# /' "$tmp/gpu.out"
printf '#!/bin/sh\necho 1..1; echo not ok 1\n' >"$g/base/k-t"
(cd "$tmp/gpu" && rm a.tar.xz && "$py" -c 'import lzma, sys, tarfile
with lzma.open("a.tar.xz", "w") as xz, tarfile.open(fileobj=xz, mode="w|") as t:
    t.add("mutants-gpu")')
$mut gpu-run "$tmp/gpu/a.tar.xz" --work "$tmp/gpu/run" >"$tmp/gpu.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'baseline: .*k-t@0 fails unmutated' "$tmp/gpu.out"
ok $? "gpu-run stops when the unmutated program fails (exit $rc)"
printf '#!/bin/sh\necho "1..0 # SKIP no CUDA device"\n' >"$g/base/k-t"
(cd "$tmp/gpu" && rm a.tar.xz && "$py" -c 'import lzma, sys, tarfile
with lzma.open("a.tar.xz", "w") as xz, tarfile.open(fileobj=xz, mode="w|") as t:
    t.add("mutants-gpu")')
$mut gpu-run "$tmp/gpu/a.tar.xz" --work "$tmp/gpu/run" >"$tmp/gpu.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'baseline: .*k-t@0 skips unmutated' "$tmp/gpu.out"
ok $? "gpu-run stops when the unmutated program skips (no GPU): no score (exit $rc)"

# ---------------------------------------------------------------- refusals

# refused DESC NEEDLE ARGS...: tools/mutate.py ARGS exits 2 and says NEEDLE.
refused() {
    desc=$1
    needle=$2
    shift 2
    # shellcheck disable=SC2086
    $mut "$@" >"$tmp/r.out" 2>"$tmp/r.err"
    rc=$?
    [ $rc -eq 2 ] && [ ! -s "$tmp/r.out" ] && grep -qF -- "$needle" "$tmp/r.err"
    ok $? "$desc (exit $rc)" || sed 's/^/# /' "$tmp/r.err"
}
refused "an unknown area" "--area nosuch: not an area of the map" list --area nosuch
refused "a file not in the map" "--file ref/nosuch.c: not a file of the map" \
    list --file ref/nosuch.c
refused "a malformed ID" "'ref/format.c:x' is not a mutant ID" list --mutant ref/format.c:x
refused "an ID that names no mutant" "ref/format.c:99999:1:sub: no such mutant" \
    list --mutant ref/format.c:99999:1:sub
refused "a negative sample" "argument --sample: '-1' is negative" list --sample -1
refused "a seed that is not a number" "argument --seed: 'x' is not a whole number" \
    list --seed x
refused "no command" "a command is needed" --map "$SMMA_SRCDIR/tests/mutants.map"
refused "a bar that is not AREA=PERCENT" "--bar ref=x: expected AREA=PERCENT" \
    run --builddir . --bar ref=x
refused "a build directory that is not configured" "--builddir $tmp: not a configured" \
    run --builddir "$tmp"
printf '[ref]\nref/format.c tests/ref/format-t\n' >"$tmp/bad.map"
refused "a map line without its colon" "$tmp/bad.map:2: expected '[AREA]' or 'FILE: TEST...'" \
    --map "$tmp/bad.map" list
printf '[ref]\nref/format.c: tests/ref/format-t@7\n' >"$tmp/bad.map"
refused "a test of a level that does not exist" "$tmp/bad.map:2: 'tests/ref/format-t@7' is not a test" \
    --map "$tmp/bad.map" list
printf '[ref]\nref/format.c: = ref/other.c\n' >"$tmp/bad.map"
refused "'= FILE' of a file not listed above" "$tmp/bad.map:2: '= FILE' must name one file" \
    --map "$tmp/bad.map" list
refused "a map that does not exist" "$tmp/none.map: No such file" --map "$tmp/none.map" list

tap_done
