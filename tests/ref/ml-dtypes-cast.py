#!/usr/bin/env python3
"""tests/ref/ml-dtypes-cast.py - ml_dtypes' float8_e8m0fnu cast, for
tests/ref/ml-dtypes-t, which compares it with softmma's ml_dtypes profile.

    ml-dtypes-cast.py version
        prints "ml_dtypes VERSION numpy VERSION" (exit 3 when either is missing)
    ml-dtypes-cast.py f32 FIRST COUNT STRIDE
        writes COUNT bytes to standard output: byte i is the e8m0 code that a
        NumPy cast of the float32 array gives for the fp32 bit pattern
        (FIRST + i * STRIDE) mod 2^32
    ml-dtypes-cast.py f64 FILE
        FILE holds one 64-bit pattern per line (hex); prints, one per line,
        the code of ml_dtypes.float8_e8m0fnu(x) for the Python float x with
        those bits (the scalar path, which converts the double directly), or
        0x100 when the cast raised an exception

Numbers are parsed with int(..., 0), so 0x prefixes are accepted.
"""
import struct
import sys

CHUNK = 1 << 24


def load():
    try:
        import ml_dtypes
        import numpy as np
    except ImportError as e:
        sys.stderr.write("ml-dtypes-cast.py: %s\n" % e)
        sys.exit(3)
    return ml_dtypes, np


def cast_f32(first, count, stride):
    ml_dtypes, np = load()
    out = sys.stdout.buffer
    base = np.arange(min(CHUNK, count), dtype=np.uint64)
    base32 = base.astype(np.uint32)
    bits = np.empty(len(base), dtype=np.uint32)
    codes = np.empty(len(base), dtype=ml_dtypes.float8_e8m0fnu)
    done = 0
    while done < count:
        n = min(CHUNK, count - done)
        start = (first + done * stride) & 0xffffffff
        if stride == 1:
            # uint32 arithmetic wraps modulo 2^32, as the patterns do.
            np.add(base32[:n], np.uint32(start), out=bits[:n])
        else:
            bits[:n] = ((start + base[:n] * stride) & 0xffffffff).astype(np.uint32)
        codes[:n] = bits[:n].view(np.float32)
        out.write(codes[:n].view(np.uint8))
        done += n
    out.flush()


def cast_f64(path):
    ml_dtypes, np = load()
    e8m0 = ml_dtypes.float8_e8m0fnu
    lines = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            x = struct.unpack("<d", struct.pack("<Q", int(line, 16)))[0]
            try:
                code = int(np.asarray(e8m0(x)).view(np.uint8))
            except (ArithmeticError, ValueError, TypeError):
                code = 0x100  # the cast raised: no code
            lines.append("0x%02x" % code)
    sys.stdout.write("\n".join(lines) + ("\n" if lines else ""))


def main(argv):
    if len(argv) == 2 and argv[1] == "version":
        ml_dtypes, np = load()
        print("ml_dtypes %s numpy %s" % (ml_dtypes.__version__, np.__version__))
    elif len(argv) == 5 and argv[1] == "f32":
        cast_f32(int(argv[2], 0), int(argv[3], 0), int(argv[4], 0))
    elif len(argv) == 3 and argv[1] == "f64":
        cast_f64(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
