#!/bin/sh
# tests/python/replay-t.sh - the H100 results of PyTorch's, JAX's and Triton's
# quantizers replayed against their profiles with no GPU
# (tests/python/replay-t.py, bench/quantizer-replay.py).
. "${SMMA_SRCDIR:-$(dirname "$0")/../..}/tests/python/common.sh"
exec "$py" "$SMMA_SRCDIR/tests/python/replay-t.py"
