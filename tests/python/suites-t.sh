#!/bin/sh
# tests/python/suites-t.sh - the Python module against every committed
# decode, encode, quant, scale-layout and gemm suite (tests/python/suites-t.py).
. "${SMMA_SRCDIR:-$(dirname "$0")/../..}/tests/python/common.sh"
exec "$py" "$SMMA_SRCDIR/tests/python/suites-t.py"
