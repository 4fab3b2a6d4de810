#!/bin/sh
# tests/python/module-t.sh - the Python module's own behaviour
# (tests/python/module-t.py): ABI, errors, round trips, each function.
. "${SMMA_SRCDIR:-$(dirname "$0")/../..}/tests/python/common.sh"
exec "$py" "$SMMA_SRCDIR/tests/python/module-t.py"
