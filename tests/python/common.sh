# tests/python/common.sh - sourced by the tests/python/*-t.sh drivers: finds
# the Python that configure chose ($PYTHON, from make check), numpy and the
# shared library of this build, or skips the whole test with the reason.
# Then $py runs Python with the module of this source tree and that library:
# SOFTMMA_LIB names it, PYTHONPATH holds python/, nothing is byte-compiled.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

if [ -z "$PYTHON" ] || [ "$PYTHON" = : ]; then
    skip_all "no Python 3 (configure found none; PYTHON=/path/to/python3 ./configure)"
fi
if ! "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
    skip_all "numpy not importable"
fi
SOFTMMA_LIB=$(cd "$SMMA_BUILDDIR" && pwd)/.libs/libsoftmma.so.0
if [ ! -f "$SOFTMMA_LIB" ]; then
    skip_all "no shared libsoftmma in this build (configured with --disable-shared)"
fi
# A library built with AddressSanitizer loads into Python only after the
# sanitizer's runtime: preload it (Python's own allocations are not leaks).
asan=$(ldd "$SOFTMMA_LIB" 2>/dev/null | awk '/libasan/ { print $3 }')
if [ -n "$asan" ]; then
    LD_PRELOAD=$asan
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
    export LD_PRELOAD ASAN_OPTIONS
fi
PYTHONPATH=$SMMA_SRCDIR/python
PYTHONDONTWRITEBYTECODE=1
export SOFTMMA_LIB PYTHONPATH PYTHONDONTWRITEBYTECODE SMMA_SRCDIR SMMA_BUILDDIR
py=$PYTHON
