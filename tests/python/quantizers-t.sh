#!/bin/sh
# tests/python/quantizers-t.sh - the quantizers of PyTorch, JAX and Triton on
# a GPU against the profiles pytorch, jax-jit, jax and triton-mxfp, bit for bit
# (tests/python/quantizers-t.py); each library's points skip with the reason
# without it or without a CUDA device.
. "${SMMA_SRCDIR:-$(dirname "$0")/../..}/tests/python/common.sh"
exec "$py" "$SMMA_SRCDIR/tests/python/quantizers-t.py"
