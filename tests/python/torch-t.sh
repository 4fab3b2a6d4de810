#!/bin/sh
# tests/python/torch-t.sh - cuBLASLt through PyTorch on an sm_90 GPU against
# the cublaslt- models (tests/python/torch-t.py); skips without torch or a
# CUDA device.
. "${SMMA_SRCDIR:-$(dirname "$0")/../..}/tests/python/common.sh"
exec "$py" "$SMMA_SRCDIR/tests/python/torch-t.py"
