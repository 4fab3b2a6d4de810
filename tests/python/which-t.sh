#!/bin/sh
# tests/python/which-t.sh - softmma.which_profiles, quantize's input='bf16'
# and the split-K tables (tests/python/which-t.py).
. "${SMMA_SRCDIR:-$(dirname "$0")/../..}/tests/python/common.sh"
exec "$py" "$SMMA_SRCDIR/tests/python/which-t.py"
