#!/bin/sh
# tests/tap-summary.sh DIR - sums the TAP points of every test run under DIR
# (the .trs files written by Automake's tap-driver.sh) and prints one line:
#   N passed, N failed, N skipped
# PASS and XFAIL count as passed; FAIL, XPASS and ERROR as failed.
dir=${1:-.}
find "$dir" -name '*.trs' -exec cat {} + 2>/dev/null | awk '
  /^:test-result: (PASS|XFAIL)/ { p++ }
  /^:test-result: (FAIL|XPASS|ERROR)/ { f++ }
  /^:test-result: SKIP/ { s++ }
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s }'
