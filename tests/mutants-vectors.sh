#!/bin/sh
# tests/mutants-vectors.sh - the drift test of the committed vectors as TAP,
# for tools/mutate.py (tests/mutants.map): softmma gen --check regenerates
# every committed suite and compares it with vectors/ byte for byte.  Each
# suite is a point, as soon as it is checked (so that the first difference
# stops a mutant's run), and gen --check's exit status 0 is the last point.
# make check runs the same drift test in tests/tools/vectors-cli-t.sh.
prog=${SMMA_BUILDDIR:-.}/tools/softmma
vec=${SMMA_SRCDIR:-.}/vectors
{
    "$prog" gen --check "$vec" 2>&1
    echo "exit status $?"
} | awk '
    /^ok / { n++; print "ok " n " - " $2; fflush(); next }
    /^exit status / { n++; print ($3 == 0 ? "ok " : "not ok ") n " - gen --check exits " $3
                      next }
    /^[A-Z]+ / { n++; print "not ok " n " - " $0; fflush(); next }
    { print "# " $0 }
    END { print "1.." n }'
