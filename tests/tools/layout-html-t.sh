#!/bin/sh
# tests/tools/layout-html-t.sh - softmma layout ... --html FILE: the page
# is written whole and self-contained, and in a real browser (headless
# Chromium) pointing at a cell shows its holder and pointing at a lane or
# thread highlights exactly its cells.
#
# What the page shows is checked against `softmma layout ...` text output
# for the same layout, not against numbers copied from the page:
#   - the holder of cell (R, C) is field C + 2 of the text line of row R,
#     and in words what `--at R,C` prints after the label;
#   - the cells of lane or thread T are the text cells whose label starts
#     with "T<T>:";
#   - for a scale layout, the holder of (m, kb) is the last line of
#     `--at m,kb`, and its 16-byte line holds the cells whose offset / 16
#     is the same (the same for the byte address of a shared-memory tile,
#     `layout smem`);
#   - for tcgen05.mma D (M = 128, cta_group::1), the owner of TMEM lane l
#     is the warp that may access it, l / 32 (PTX ISA: warp w of a
#     warpgroup accesses lanes 32w..32w+31), so owner 1 holds every cell
#     of lanes 32..63, and the element there is named in words as `--at`
#     of that element names its holder;
#   - for tcgen05.mma D of a CTA pair, a lane of CTA 1 (lanes 128..255 of
#     the picture) holds the element `--at` places there;
#   - for A of tcgen05.mma read from tensor memory, the words are those of
#     `--at`, and the owner is the TMEM lane of the label L<lane>:c<column>.
#
# The browser runs each page with a probe script appended, which sends the
# page pointer and key events (the events a user's pointer sends) and
# writes what the page then shows into a <pre id="result">; --dump-dom
# prints the document.  Without Chromium (Debian's package "chromium";
# .ci/run installs it) the test skips: building softmma does not need it.
# SMMA_CHROMIUM names another browser program.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

browser=${SMMA_CHROMIUM:-}
if [ -z "$browser" ]; then
    for b in chromium chromium-browser; do
        if command -v "$b" >/dev/null 2>&1; then
            browser=$b
            break
        fi
    done
fi
[ -n "$browser" ] || skip_all "chromium not found"

prog=$SMMA_BUILDDIR/tools/softmma
work=${TMPDIR:-/tmp}/smma-layout-html.$$
rm -rf "$work"
if ! mkdir "$work"; then echo "Bail out! cannot create $work"; exit 1; fi
trap 'rm -rf "$work"' EXIT

plan_lazy

# ---------------------------------------------------------------- helpers

# explore PAGE ACTIONS: loads a copy of PAGE in the browser with a probe
# that performs ACTIONS (a JavaScript array of steps) and records, after
# each, the status line and the highlighted cells; sets $seen to the
# records, one per line:
#   status TEXT              the status line
#   lit R,C R,C ...          the highlighted cells (row and column as the
#                            page numbers them), in page order
#   cells TEXT               the line listing the owner's cells
# Steps: ["cell", R, C] points at a cell, ["chip", N] at owner N in the
# legend, ["pick", N] chooses N in the list (-1: none), ["key", K] presses
# a key, ["leave"] moves the pointer off the grid.
explore() {
    cp "$1" "$work/probe.html"
    cat >>"$work/probe.html" <<EOF
<script>
(function () {
  var g = document.getElementById("grid"), out = [], steps = $2;
  var heads = g.tHead.rows[0].cells;
  function cell(r, c) {
    var rows = g.tBodies[0].rows, i, j;
    for (i = 0; i < rows.length; i++)
      if (rows[i].cells[0].textContent === String(r))
        for (j = 1; j < heads.length; j++)
          if (heads[j].textContent === String(c)) return rows[i].cells[j];
    return null;
  }
  function over(e) { e.dispatchEvent(new PointerEvent("pointerover", { bubbles: true })); }
  steps.forEach(function (s) {
    var e, pick = document.getElementById("pick");
    if (s[0] === "cell") over(cell(s[1], s[2]));
    else if (s[0] === "chip") over(document.querySelector('#chips button[data-o="' + s[1] + '"]'));
    else if (s[0] === "pick") {
      pick.value = s[1] < 0 ? "" : String(s[1]);
      pick.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (s[0] === "key")
      document.body.dispatchEvent(new KeyboardEvent("keydown", { key: s[1], bubbles: true }));
    else if (s[0] === "leave") g.dispatchEvent(new PointerEvent("pointerleave"));
    out.push("status " + document.getElementById("status").textContent);
    e = [];
    g.querySelectorAll("td.mine").forEach(function (t) {
      e.push(t.parentNode.cells[0].textContent + "," + heads[t.cellIndex].textContent);
    });
    out.push("lit " + e.join(" "));
    out.push("cells " + document.getElementById("cells").textContent);
  });
  e = document.createElement("pre"); e.id = "result"; e.textContent = out.join("\\n");
  document.body.appendChild(e);
}());
</script>
EOF
    "$browser" --headless --disable-gpu --no-sandbox --no-first-run \
        --user-data-dir="$work/profile" --host-resolver-rules='MAP * ~NOTFOUND' \
        --dump-dom "file://$work/probe.html" >"$work/dom" 2>"$work/browser.err"
    seen=$(sed -n '/<pre id="result">/,/<\/pre>/p' "$work/dom" |
        sed -e 's/^.*<pre id="result">//' -e 's/<\/pre>.*$//' \
            -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g')
    if [ -z "$seen" ]; then
        diag "the browser gave no result for $1:"
        diag "$(tail -n 5 "$work/browser.err")"
    fi
}

# record N PREFIX: the Nth line of $seen that starts with PREFIX, without
# the prefix.
record() {
    printf '%s\n' "$seen" | awk -v n="$1" -v p="$2 " \
        'index($0, p) == 1 && ++k == n { print substr($0, length(p) + 1) }'
}

# text_cell TEXT R C: the label of row R, column C of a text grid.
text_cell() {
    printf '%s\n' "$1" | awk -v r="$2" -v c="$3" 'NR > 2 && $1 == r { print $(c + 2) }'
}

# text_cells TEXT REGEX: "R,C R,C ..." of the text grid's cells whose
# label matches REGEX, row by row.
text_cells() {
    printf '%s\n' "$1" | awk -v re="$2" '
        NR > 2 { for (i = 2; i <= NF; i++) if ($i ~ re) s = s (s == "" ? "" : " ") $1 "," (i - 2) }
        END { print s }'
}

# at_words ARGS...: the holder in words that `softmma layout ARGS` (with
# --at) prints in the parentheses that end its line.
at_words() {
    run_prog "$prog" layout "$@"
    printf '%s\n' "$tap_out" | sed -n 's/^.*): [^ ]* (\(.*\))$/\1/p'
}

# write_page NAME ARGS...: softmma layout ARGS --html $work/NAME.html, one
# point: it exits 0, prints nothing and writes the file.
write_page() {
    wp_name=$1
    shift
    run_prog "$prog" layout "$@" --html "$work/$wp_name.html"
    if [ "$tap_rc" -eq 0 ] && [ -z "$tap_out" ] && [ -z "$tap_err" ] &&
        [ -s "$work/$wp_name.html" ]; then
        ok 0 "--html writes the page of $*"
    else
        ok 1 "--html writes the page of $*"
        diag "exit $tap_rc, stdout: $tap_out, stderr: $tap_err"
    fi
}

# ---------------------------------------------------------------- the file

write_page a16 mma.m16n8k16.bf16 a
page=$work/a16.html
is "<!DOCTYPE html>" "$(head -n 1 "$page")" "the page starts with <!DOCTYPE html>"
is "</html>" "$(tail -n 1 "$page")" "the page ends with </html>"
# Self-contained: nothing is loaded from elsewhere.
is 0 "$(grep -Eci 'src=|href=|https?:|//[a-z]|@import|url\(|fetch\(|XMLHttpRequest' "$page")" \
    "the page refers to nothing outside itself"
is 1 "$(grep -c '<script type="application/json" id="data">' "$page")" \
    "the cells travel as one JSON object"
if command -v xmllint >/dev/null 2>&1; then
    xmllint --html --noout "$page" 2>"$work/xml"
    is "0 " "$? $(head -n 3 "$work/xml")" "xmllint --html parses the page without a complaint"
fi
tap_vg_pick "$prog" layout
# shellcheck disable=SC2086
$tap_vg "$prog" layout mma.m16n8k16.bf16 a --html - >"$work/stdout.html" 2>"$work/err" </dev/null
if [ $? -eq 0 ] && cmp -s "$page" "$work/stdout.html"; then
    ok 0 "--html - writes the same page to stdout"
else
    ok 1 "--html - writes the same page to stdout"
fi
printf 'old\n' >"$work/keep.html"
run_prog "$prog" layout mma.m16n8k16.bf16 a --html "$work/keep.html"
if [ "$tap_rc" -eq 0 ] && cmp -s "$page" "$work/keep.html"; then
    ok 0 "--html replaces an existing file"
else
    ok 1 "--html replaces an existing file"
fi

run_prog "$prog" layout mma.m16n8k16.bf16 a --help
case $tap_out in
    *"--html FILE writes the grid as one self-contained web page"*) ok 0 "--help documents --html" ;;
    *) ok 1 "--help documents --html" ;;
esac
run_prog "$prog" layout scale --help
case $tap_out in
    *"--html FILE writes the offsets as a web page"*) ok 0 "scale --help documents --html" ;;
    *) ok 1 "scale --help documents --html" ;;
esac

# ---------------------------------------------------------------- errors

printf 'old\n' >"$work/keep.html"
expect_err "unknown operand with --html" "unknown operand 'e' of mma.m16n8k16.bf16" \
    layout mma.m16n8k16.bf16 e --html "$work/keep.html"
is "old" "$(cat "$work/keep.html")" "... the existing file is untouched"
expect_err "--html and --svg" "--svg and --html exclude each other" \
    layout mma.m16n8k16.bf16 a --svg "$work/x.svg" --html "$work/keep.html"
expect_err "--html and --text" "--text and --html exclude each other" \
    layout mma.m16n8k16.bf16 a --text --html "$work/keep.html"
expect_err "scale: --html and --at" "--at and --html exclude each other" \
    layout scale --layout 128x4 --rows 4 --k 64 --vec 32 --at 0,0 --html "$work/keep.html"
expect_err "an unwritable place names --html and the file" \
    "--html $work/none/x.html: cannot create $work/none/x.html." \
    layout mma.m16n8k16.bf16 a --html "$work/none/x.html"
expect_err "a scale grid too large for a page" \
    "200000 x 2 scales are too many to draw (at most 131072)" \
    layout scale --layout linear --rows 200000 --k 64 --vec 32 --html "$work/keep.html"
is "old" "$(cat "$work/keep.html")" "... the existing file is untouched"
is "" "$(find "$work" -name '*.tmp')" "no temporary file is left behind"

# ---------------------------------------------------------------- mma.sync A

run_prog "$prog" layout mma.m16n8k16.bf16 a
text=$tap_out
explore "$page" '[["cell", 1, 11], ["chip", 31], ["leave"], ["key", "n"], ["key", "n"],
    ["key", "Escape"], ["pick", 7], ["cell", 15, 15]]'
words=$(at_words mma.m16n8k16.bf16 a --at 1,11)
is "m 1, k 11: $(text_cell "$text" 1 11) ($words)" "$(record 1 status)" \
    "mma A: pointing at (1, 11) shows its holder, as the text grid and --at have it"
case $words in
    "lane 5,"*) ok 0 "mma A: ... in words, lane 5 first" ;;
    *) ok 1 "mma A: ... in words, lane 5 first"; diag "seen: $words" ;;
esac
is "$(text_cells "$text" '^T5:')" "$(record 1 lit)" \
    "mma A: ... and highlights exactly lane 5's cells"
case $(record 1 cells) in
    "lane 5 holds 8 cells: (m 1, k 2) T5:r0.0;"*) ok 0 "mma A: ... and lists them" ;;
    *) ok 1 "mma A: ... and lists them"; diag "seen: $(record 1 cells)" ;;
esac
is "$(text_cells "$text" '^T31:')" "$(record 2 lit)" \
    "mma A: pointing at lane 31 in the legend highlights exactly its cells"
is "" "$(record 3 lit)" "mma A: leaving the grid clears the highlight"
is "$(text_cells "$text" '^T0:') lane 0 (chosen; Esc clears)" \
    "$(record 4 lit) $(record 4 status)" "mma A: key n chooses lane 0"
is "$(text_cells "$text" '^T1:')" "$(record 5 lit)" "mma A: n again chooses lane 1"
is "" "$(record 6 lit)" "mma A: Esc clears"
is "$(text_cells "$text" '^T7:')" "$(record 7 lit)" "mma A: choosing lane 7 in the list"
is "m 15, k 15: $(text_cell "$text" 15 15) ($(at_words mma.m16n8k16.bf16 a --at 15,15))" \
    "$(record 8 status)" \
    "mma A: pointing at (15, 15)"

# ---------------------------------------------------------------- wgmma D

write_page wd wgmma.m64n8k16.bf16 d
run_prog "$prog" layout wgmma.m64n8k16.bf16 d
text=$tap_out
explore "$work/wd.html" '[["cell", 17, 5], ["chip", 127]]'
is "m 17, n 5: $(text_cell "$text" 17 5) ($(at_words wgmma.m64n8k16.bf16 d --at 17,5))" \
    "$(record 1 status)" \
    "wgmma D: pointing at (17, 5) shows its holder"
is "$(text_cells "$text" '^T38:')" "$(record 1 lit)" \
    "wgmma D: ... and highlights exactly thread 38's cells"
is "$(text_cells "$text" '^T127:')" "$(record 2 lit)" \
    "wgmma D: pointing at thread 127 highlights exactly its cells"

# ---------------------------------------------------------------- scale

write_page s4 scale --layout 128x4 --rows 40 --k 300 --vec 32
run_prog "$prog" layout scale --layout 128x4 --rows 40 --k 300 --vec 32 --at 33,5
off=$(printf '%s\n' "$tap_out" | sed -n '$s/^ *= *//p')
run_prog "$prog" layout scale --layout 128x4 --rows 40 --k 300 --vec 32
line_cells=$(printf '%s\n' "$tap_out" | awk -v l="$((off / 16))" '
    $1 == "row" { r = $2 + 0; for (i = 3; i <= NF; i++) if (int($i / 16) == l)
        s = s (s == "" ? "" : " ") r "," (i - 3) }
    END { print s }')
explore "$work/s4.html" '[["cell", 33, 5]]'
is "m 33, kb 5: $off (16-byte line $((off / 16)))" "$(record 1 status)" \
    "scale 128x4: pointing at (33, 5) shows the offset --at gives"
is "$line_cells" "$(record 1 lit)" \
    "scale 128x4: ... and highlights exactly the scales of its 16-byte line"

# ---------------------------------------------------------------- tcgen05 D

write_page td tcgen05.mma.m128 d
run_prog "$prog" layout tcgen05.mma.m128 d
text=$tap_out
warp1=$(printf '%s\n' "$text" | awk '
    NR > 2 && $1 >= 32 && $1 < 64 { for (i = 2; i <= NF; i++) if ($i != ".")
        s = s (s == "" ? "" : " ") $1 "," (i - 2) }
    END { print s }')
explore "$work/td.html" '[["cell", 37, 3]]'
is "lane 37, col 3: $(text_cell "$text" 37 3) ($(at_words tcgen05.mma.m128 d --at 37,3); owner 1)" \
    "$(record 1 status)" \
    "tcgen05 D: pointing at lane 37, column 3 shows the element of D there"
is "$warp1" "$(record 1 lit)" "tcgen05 D: ... and highlights exactly lanes 32..63"

# ---------------------------------------------------------------- tcgen05 D of a CTA pair

# The shape in the name; element (m 70, n 40) lies where --at puts it, in a
# lane of CTA 1 (L<lane>:c<column>, lanes 128..255 of the picture), whose
# warp (lane / 32) owns the lanes 32 w .. 32 w + 31.
run_prog "$prog" layout tcgen05.mma.m128n64.cg2 d --at 70,40
where=$(printf '%s\n' "$tap_out" | sed -n 's/^.*): L\([0-9]*\):c\([0-9]*\) .*$/\1 \2/p')
lane=${where% *}
col=${where#* }
write_page tp tcgen05.mma.m128n64.cg2 d
run_prog "$prog" layout tcgen05.mma.m128n64.cg2 d
text=$tap_out
warp=$(printf '%s\n' "$text" | awk -v w="$((lane / 32))" '
    NR > 2 && int($1 / 32) == w { for (i = 2; i <= NF; i++) if ($i != ".")
        s = s (s == "" ? "" : " ") $1 "," (i - 2) }
    END { print s }')
explore "$work/tp.html" "[[\"cell\", $lane, $col]]"
is "lane $lane, col $col: m70,n40 ($(at_words tcgen05.mma.m128n64.cg2 d --at 70,40); owner $((lane / 32)))" \
    "$(record 1 status)" \
    "tcgen05 D cg2: the cell --at names (lane $lane, col $col) holds m70,n40, its holder in words"
case $(record 1 status) in
    *"(CTA 1, TMEM lane 70, "*) ok 0 "tcgen05 D cg2: ... in CTA 1's lane 70" ;;
    *) ok 1 "tcgen05 D cg2: ... in CTA 1's lane 70" ;;
esac
is "$warp" "$(record 1 lit)" "tcgen05 D cg2: ... and highlights exactly its warp's lanes"

# ---------------------------------------------------------------- tcgen05 A in TMEM

write_page ta tcgen05.mma.m128.f16 a
run_prog "$prog" layout tcgen05.mma.m128.f16 a
text=$tap_out
explore "$work/ta.html" '[["cell", 3, 5]]'
is "m 3, k 5: $(text_cell "$text" 3 5) ($(at_words tcgen05.mma.m128.f16 a --at 3,5))" \
    "$(record 1 status)" "tcgen05 A: pointing at (3, 5) shows its TMEM lane and column in words"
is "$(text_cells "$text" '^L3:')" "$(record 1 lit)" \
    "tcgen05 A: ... and highlights exactly the elements of TMEM lane 3"

# ---------------------------------------------------------------- shared memory

# The byte address of (row 3, k 9) of a 128B-swizzled K-major tile is the
# last line of --at ("= byte B"); its 16-byte chunk holds the text cells
# whose address / 16 is the same.
write_page sm smem 128B k
run_prog "$prog" layout smem 128B k --at 3,9
byte=$(printf '%s\n' "$tap_out" | sed -n '$s/^= byte //p')
run_prog "$prog" layout smem 128B k
text=$tap_out
chunk=$(printf '%s\n' "$text" | awk -v l="$((byte / 16))" '
    NR > 2 { for (i = 2; i <= NF; i++) if (int($i / 16) == l)
        s = s (s == "" ? "" : " ") $1 "," (i - 2) }
    END { print s }')
explore "$work/sm.html" '[["cell", 3, 9], ["key", "ArrowRight"]]'
is "mn 3, k 9: $byte (16-byte chunk $((byte / 16)))" "$(record 1 status)" \
    "smem 128B k: pointing at (3, 9) shows the address --at derives"
is "$(text_cell "$text" 3 9)" "$byte" "smem 128B k: ... which the text grid has there"
is "$chunk" "$(record 1 lit)" "smem 128B k: ... and highlights exactly the 8 elements of its chunk"
is "mn 3, k 10: $(text_cell "$text" 3 10) (16-byte chunk $(($(text_cell "$text" 3 10) / 16)))" \
    "$(record 2 status)" "smem 128B k: the arrow key moves to (3, 10)"

tap_done
