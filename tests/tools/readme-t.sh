#!/bin/sh
# tests/tools/readme-t.sh - README.md says what the tree does:
#   - its first code block holds the test command .ci/run runs as
#     "README's test command";
#   - its shell and Python examples are doc/examples/check-cli.sh and
#     doc/examples/check-python.py byte for byte (tests/python/doc-t.sh
#     runs those files);
#   - each command of its console blocks prints exactly the lines that
#     follow it there;
#   - it names every command that softmma help lists;
#   - every relative link of README.md and doc/*.md (outside code blocks)
#     names a file of the tree.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tools/softmma
readme=$SMMA_SRCDIR/README.md
tmp=${TMPDIR:-/tmp}/smma-readme-t.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

plan_lazy

# block LANG N FILE: the lines of the Nth code block fenced as ```LANG.
block() {
    awk -v open="\`\`\`$1" -v n="$2" '
        f && /^```$/ { exit }
        f { print }
        $0 == open && ++c == n { f = 1 }' "$3"
}

block sh 1 "$readme" >"$tmp/first"
grep -qx './bootstrap && ./configure && make -j2 check' "$tmp/first" &&
    grep -q '^step check make -j2 check$' "$SMMA_SRCDIR/.ci/run"
ok $? "README's first block holds the test command that .ci/run runs"

# The examples: README's second sh block and its first python block.
block sh 2 "$readme" >"$tmp/cli"
cmp -s "$tmp/cli" "$SMMA_SRCDIR/doc/examples/check-cli.sh"
ok $? "README's shell example is doc/examples/check-cli.sh byte for byte"
block python 1 "$readme" >"$tmp/py"
cmp -s "$tmp/py" "$SMMA_SRCDIR/doc/examples/check-python.py"
ok $? "README's Python example is doc/examples/check-python.py byte for byte"

# The console blocks: each '$ softmma ARGS' line, then the lines it prints.
# Written as cmd.N (the arguments) and want.N (the output).
awk -v dir="$tmp" '
    /^```console$/ { f = 1; next }
    f && /^```$/ { f = 0; next }
    f && /^\$ softmma / { n++; print substr($0, 11) > (dir "/cmd." n); printf "" > (dir "/want." n); next }
    f && n { print > (dir "/want." n) }
    END { print n + 0 > (dir "/count") }' "$readme"
count=$(cat "$tmp/count")
[ "$count" -ge 1 ]
ok $? "README has console examples of softmma ($count commands)"
i=1
while [ "$i" -le "$count" ]; do
    args=$(cat "$tmp/cmd.$i")
    # shellcheck disable=SC2086
    expect_out "README: softmma $args prints what README shows" \
        "$(cat "$tmp/want.$i")" $args
    i=$((i + 1))
done

# Every command of softmma help: the lines between 'Commands:' and the
# blank line after them.
run_prog "$prog" help
cmds=$(printf '%s\n' "$tap_out" | awk '/^Commands:/ { f = 1; next } f && /^$/ { exit } f { print $1 }')
[ -n "$cmds" ]
ok $? "softmma help lists commands"
missing=
for c in $cmds; do
    grep -q "^| .*\`$c\`" "$readme" || missing="$missing $c"
done
is "" "$missing" "README's table of commands names every command of softmma help"

# Relative links, code blocks aside: ](TARGET) with TARGET not a URL or an
# anchor; '#...' cut; resolved against the file's folder.
for f in "$readme" "$SMMA_SRCDIR"/doc/*.md; do
    d=$(dirname "$f")
    bad=
    # The targets hold no blank ([^) ]), so words are lines.
    # shellcheck disable=SC2013
    for l in $(awk '/^```/ { f = !f; next } !f' "$f" | grep -o '](\([^) ]*\))' |
               sed 's/^](//; s/)$//'); do
        case $l in
            http://* | https://* | mailto:* | '#'*) continue ;;
        esac
        [ -e "$d/${l%%#*}" ] || bad="$bad $l"
    done
    is "" "$bad" "every relative link of ${f#"$SMMA_SRCDIR"/} names a file"
done

tap_done
