#!/bin/sh
# tests/tap-summary.sh DIR - sums the TAP points of every test run under DIR
# (the .trs files written by Automake's tap-driver.sh) and prints one line:
#   N passed, N failed, N skipped
# PASS and XFAIL count as passed; FAIL, XPASS and ERROR as failed.
#
# tests/tap-summary.sh --slowest N DIR - lists instead the N tests of the
# last run under DIR that took longest, one a line ("  412 s  tests/sim/
# sm90-p32-dry-t"), from the "# run-test: N s" line tests/run-test ends
# each test's log with.
if [ "$1" = --slowest ]; then
    n=$2
    dir=${3:-.}
    find "$dir" -name '*.log' ! -name test-suite.log -exec grep -H '^# run-test: [0-9]* s$' {} + \
        2>/dev/null | sed 's/\.log:# run-test: \([0-9]*\) s$/ \1/' | sort -k2,2nr -k1,1 |
        head -n "$n" | awk '{ printf "  %5d s  %s\n", $2, $1 }'
    exit 0
fi
dir=${1:-.}
find "$dir" -name '*.trs' -exec cat {} + 2>/dev/null | awk '
  /^:test-result: (PASS|XFAIL)/ { p++ }
  /^:test-result: (FAIL|XPASS|ERROR)/ { f++ }
  /^:test-result: SKIP/ { s++ }
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s }'
