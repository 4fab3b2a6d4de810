#!/usr/bin/env python3
"""tools/mutate.py - mutation testing of softmma's C and CUDA C sources.

A mutant is one small change at one place of one source file: an operator
swapped, a constant moved by one, a mask widened or narrowed by a bit, two
arguments of a call exchanged, a statement deleted.  Each mutant is built in
a scratch copy of the tree and run against the tests that exercise its file
(tests/mutants.map); a test that fails kills it.  A mutant whose object code
is identical to the original's is equivalent by definition and is not run.

    mutate.py list [--seed S] [--sample N] [--area A]... [--file F]...
        the mutants, one a line: ID, then the change.
    mutate.py show ID...
        the source line of each mutant before and after.
    mutate.py run --builddir DIR [--seed S] [--sample N] [--area A]...
                  [--file F]... [--mutant ID]... [--ids FILE] [--jobs J]
                  [--timeout SECONDS] [--work DIR] [--results FILE]
        builds and runs the mutants, then prints the table of killed,
        survived, timed out and equivalent mutants per file and area and the
        survivors' IDs (each re-runs alone with --mutant ID).

An ID is FILE:LINE:COLUMN:KIND (ref/encode.c:24:30:le); it names the same
mutant for as long as that line is unchanged.  Mutants are listed in the
order of file, line, column and kind; a sample of N per area is drawn from
that list by a generator seeded with S and the area's name, so that the same
tree, seed and N give the same mutants on every machine.

Python 3 standard library only.  Exit status: 0 when the run completed
(whatever the score), 1 when the baseline failed or a build broke, 2 on bad
arguments or a malformed map.
"""

import argparse
import lzma
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import threading
import time

PROG = "mutate.py"

# --- mutation operators -------------------------------------------------------

# The binary operators and what each becomes (KIND, replacement).
BINARY = {
    "+": [("sub", "-")],
    "-": [("add", "+")],
    "*": [("div", "/")],
    "/": [("mul", "*")],
    "%": [("div", "/")],
    "<": [("le", "<=")],
    "<=": [("lt", "<")],
    ">": [("ge", ">=")],
    ">=": [("gt", ">")],
    "==": [("ne", "!=")],
    "!=": [("eq", "==")],
    "&&": [("lor", "||")],
    "||": [("land", "&&")],
    "&": [("or", "|")],
    "|": [("and", "&")],
    "^": [("or", "|")],
    "<<": [("shr", ">>")],
    ">>": [("shl", "<<")],
    "+=": [("sub", "-=")],
    "-=": [("add", "+=")],
    "*=": [("div", "/=")],
    "/=": [("mul", "*=")],
    "&=": [("or", "|=")],
    "|=": [("and", "&=")],
    "^=": [("or", "|=")],
    "<<=": [("shr", ">>=")],
    ">>=": [("shl", "<<=")],
}

PUNCT = sorted(["<<<", ">>>", "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=",
                ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "^=",
                "|=", "##"], key=len, reverse=True)

KEYWORDS = set("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Bool _Static_assert bool
__attribute__ __restrict__ __device__ __host__ __global__ __forceinline__ asm
__asm__ alignof _Alignof offsetof""".split())

# Statement deletion applies to statements that start like these.
ASSIGN_NEXT = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "(", "[",
               ".", "->", "++", "--"}

SIMPLE_ARG = re.compile(r"^&?[A-Za-z_]\w*(?:(?:\.|->)[A-Za-z_]\w*)*$|^[0-9][0-9a-fA-FxXuUlL]*$")

# Arguments that are never of the type of their neighbours (error and message
# outputs).
NOT_SWAPPED = {"err", "msg", "msg_len", "why", "why_len", "errbuf"}

# The words that make a function device code (CUDA C, softmma/hd.h).
DEVICE_WORDS = {"__device__", "__global__", "SMMA_HD"}

INT_RE = re.compile(r"^(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)([uUlL]*)$")


class Tok:
    __slots__ = ("kind", "text", "pos", "end", "line", "col", "pp")

    def __init__(self, kind, text, pos, line, col, pp):
        self.kind, self.text, self.pos, self.line, self.col, self.pp = \
            kind, text, pos, line, col, pp
        self.end = pos + len(text)


def tokenize(src):
    """The tokens of a C source: identifiers, numbers, strings, characters,
    punctuators.  Comments are skipped; of the preprocessor lines only the
    bodies of #define are kept (with pp set), the others are skipped."""
    toks = []
    i, n = 0, len(src)
    line, lstart = 1, 0
    at_bol = True
    pp_end = -1  # the offset where the current #define's text ends

    def directive_end(j):
        while j < n:
            if src[j] == "\n" and src[j - 1] != "\\":
                return j
            if src.startswith("/*", j):
                k = src.find("*/", j + 2)
                j = n if k < 0 else k + 2
                continue
            j += 1
        return n

    while i < n:
        c = src[i]
        if i >= pp_end >= 0:
            pp_end = -1
        if c == "\n":
            line += 1
            lstart = i + 1
            i += 1
            at_bol = True
            continue
        if c in " \t\r\f\v" or (c == "\\" and i + 1 < n and src[i + 1] == "\n"):
            i += 1
            continue
        if src.startswith("/*", i):
            k = src.find("*/", i + 2)
            k = n if k < 0 else k + 2
            line += src.count("\n", i, k)
            if "\n" in src[i:k]:
                lstart = src.rfind("\n", i, k) + 1
            i = k
            continue
        if src.startswith("//", i):
            k = src.find("\n", i)
            i = n if k < 0 else k
            continue
        if c == "#" and at_bol:
            m = re.match(r"#\s*(\w+)\s*", src[i:i + 64])
            word = m.group(1) if m else ""
            end = directive_end(i)
            if word == "define":
                # keep the body: skip "#define NAME" and a parameter list.
                m2 = re.match(r"#\s*define\s+\w+(\([^)]*\))?", src[i:end])
                pp_end = end
                i += m2.end()
                at_bol = False
                continue
            line += src.count("\n", i, end)
            if end > i and "\n" in src[i:end]:
                lstart = src.rfind("\n", i, end) + 1
            i = end
            continue
        at_bol = False
        pp = pp_end >= 0
        col = i - lstart + 1
        if c.isalpha() or c == "_":
            m = re.compile(r"[A-Za-z_]\w*").match(src, i)
            toks.append(Tok("id", m.group(0), i, line, col, pp))
            i = m.end()
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            m = re.compile(r"(?:0[xX][0-9a-fA-F.]+(?:[pP][+-]?\d+)?|[0-9.]+(?:[eE][+-]?\d+)?)"
                           r"[uUlLfF]*").match(src, i)
            toks.append(Tok("num", m.group(0), i, line, col, pp))
            i = m.end()
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            toks.append(Tok("str" if c == '"' else "chr", src[i:j + 1], i, line, col, pp))
            i = j + 1
            continue
        for p in PUNCT:
            if src.startswith(p, i):
                toks.append(Tok("op", p, i, line, col, pp))
                i += len(p)
                break
        else:
            toks.append(Tok("op", c, i, line, col, pp))
            i += 1
    return toks


class Mutant:
    __slots__ = ("file", "line", "col", "kind", "pos", "end", "new", "old", "device")

    def __init__(self, file, tok_line, tok_col, kind, pos, end, new, old):
        self.file, self.line, self.col, self.kind = file, tok_line, tok_col, kind
        self.pos, self.end, self.new, self.old = pos, end, new, old
        self.device = False

    @property
    def id(self):
        return "%s:%d:%d:%s" % (self.file, self.line, self.col, self.kind)

    def apply(self, src):
        return src[:self.pos] + self.new + src[self.end:]

    def describe(self):
        old = " ".join(self.old.split())
        new = " ".join(self.new.split()) if self.new.strip() else "(deleted)"
        if len(old) > 60:
            old = old[:57] + "..."
        if len(new) > 60:
            new = new[:57] + "..."
        return "'%s' -> '%s'" % (old, new)


def int_value(text):
    m = INT_RE.match(text)
    if not m:
        return None
    return int(m.group(1), 0), m.group(1), m.group(2)


def fmt_int(v, like):
    if like[:2] in ("0x", "0X"):
        digits = max(len(like) - 2, 1)
        s = "%0*x" % (digits, v)
        if like[2:].isupper() or any(ch in "ABCDEF" for ch in like[2:]):
            s = s.upper()
        return like[:2] + s
    return str(v)


def mask_like(v, text, prev, nxt):
    """A hex constant that reads as a mask: 2^k - 1 or an operand of & or |."""
    if text[:2] not in ("0x", "0X") or v < 3:
        return False
    return (v & (v + 1)) == 0 or prev in ("&", "|", "&=", "|=") or nxt in ("&", "|")


def is_spaced(src, t):
    """An operator written with blanks on both sides: a binary operator in this
    project's style (unary -, * and & are written against their operand)."""
    return (t.pos > 0 and src[t.pos - 1] in " \t\n" and t.end < len(src) and
            src[t.end] in " \t\n")


def blank(text):
    """text with every character but newlines made a blank: the lines stay."""
    return "".join(ch if ch == "\n" else " " for ch in text)


def mutants_of(path, src):
    """Every mutant of one file, in the order of position and kind."""
    toks = tokenize(src)
    out = []

    def add(t, kind, pos, end, new):
        out.append(Mutant(path, t.line, t.col, kind, pos, end, new, src[pos:end]))

    nt = len(toks)
    depth = 0  # brace depth
    head = []  # the tokens at depth 0 since the last declaration ended
    braces = []  # for each open brace, whether it opened a namespace
    device = False  # inside a function compiled for the GPU
    for k, t in enumerate(toks):
        prev = toks[k - 1].text if k else ""
        nxt = toks[k + 1].text if k + 1 < nt else ""
        first = len(out)
        if t.kind == "op":
            if t.text == "{":
                # namespace { and extern "C" { open no block of code.
                open_ns = depth == 0 and ("namespace" in head or head[-2:-1] == ["extern"])
                braces.append(open_ns)
                if open_ns:
                    head = []
                else:
                    if depth == 0:
                        device = any(x in DEVICE_WORDS for x in head)
                    depth += 1
            elif t.text == "}":
                if not (braces and braces.pop()):
                    depth -= 1
                if depth == 0:
                    device, head = False, []
            elif depth == 0 and t.text == ";":
                head = []
        if depth == 0 and not t.pp and t.text not in ("{", "}", ";"):
            head.append(t.text)
        if t.kind == "op":
            if t.text in BINARY and is_spaced(src, t):
                for kind, new in BINARY[t.text]:
                    add(t, kind, t.pos, t.end, new)
            elif t.text == "!" and nxt not in ("=",) and not is_spaced(src, t):
                add(t, "nonot", t.pos, t.end, "")
        elif t.kind == "num":
            iv = int_value(t.text)
            if iv is None:
                continue
            v, digits, suffix = iv
            shift = prev in ("<<", ">>", "<<=", ">>=")
            tag = "shift" if shift else "c"
            add(t, tag + "+1", t.pos, t.end, fmt_int(v + 1, digits) + suffix)
            if v > 0:
                add(t, tag + "-1", t.pos, t.end, fmt_int(v - 1, digits) + suffix)
            if mask_like(v, digits, prev, nxt):
                hb = 1 << (v.bit_length() - 1)
                if (v & (v + 1)) == 0:
                    wide, narrow = (v << 1) | 1, v >> 1
                else:
                    wide, narrow = v | (hb << 1), v & ~hb
                add(t, "widen", t.pos, t.end, fmt_int(wide, digits) + suffix)
                add(t, "narrow", t.pos, t.end, fmt_int(narrow, digits) + suffix)
        elif t.kind == "id" and not t.pp:
            if t.text not in KEYWORDS and nxt == "(" and prev not in (".", "->") \
                    and depth > 0:
                out.extend(swaps_at(path, src, toks, k))
            if depth > 0 and prev in (";", "{", "}", ")", "else") and \
                    t.text not in KEYWORDS and nxt in ASSIGN_NEXT and \
                    (prev != ")" or closes_control(toks, k - 1)):
                d = statement_end(toks, k)
                if d is not None:
                    add(t, "del", t.pos, toks[d].pos, blank(src[t.pos:toks[d].pos]))
        for m in out[first:]:
            m.device = device
    out.sort(key=lambda m: (m.line, m.col, m.kind))
    return out


def closes_control(toks, k):
    """Whether the ')' at k closes the condition of if, while or for."""
    d = 0
    for j in range(k, -1, -1):
        if toks[j].text == ")":
            d += 1
        elif toks[j].text == "(":
            d -= 1
            if d == 0:
                return j > 0 and toks[j - 1].text in ("if", "while", "for")
    return False


def statement_end(toks, k):
    """The index of the ';' that ends the statement starting at k."""
    d = 0
    for j in range(k, len(toks)):
        x = toks[j].text
        if x in ("(", "["):
            d += 1
        elif x in (")", "]"):
            d -= 1
            if d < 0:
                return None
        elif x in ("{", "}"):
            return None
        elif x == ";" and d == 0:
            return j
    return None


def swaps_at(path, src, toks, k):
    """Two adjacent arguments of the call at k exchanged, where both are plain
    names, members or numbers and differ: a swap of arguments of one type
    where the compiler accepts it (a pointer swapped with a number is refused)."""
    if toks[k].text in ("snprintf", "fprintf", "printf", "sprintf", "memcpy", "memset",
                        "strcmp", "strncmp", "fputs"):
        return []
    args, start, d = [], k + 2, 0
    for j in range(k + 1, len(toks)):
        x = toks[j].text
        if x in ("(", "[", "{"):
            d += 1
        elif x in (")", "]", "}"):
            d -= 1
            if d == 0:
                args.append((start, j))
                break
        elif x == "," and d == 1:
            args.append((start, j))
            start = j + 1
    out = []
    for a, b in zip(args, args[1:]):
        if a[1] <= a[0] or b[1] <= b[0]:
            continue
        ta = src[toks[a[0]].pos:toks[a[1] - 1].end]
        tb = src[toks[b[0]].pos:toks[b[1] - 1].end]
        if ta == tb or not SIMPLE_ARG.match(ta) or not SIMPLE_ARG.match(tb):
            continue
        # Pairs the compiler refuses (a pointer and a number) cost a build each.
        if "NULL" in (ta, tb) or ta.startswith("&") != tb.startswith("&") or \
                ta.isupper() != tb.isupper() or (ta in NOT_SWAPPED or tb in NOT_SWAPPED):
            continue
        t = toks[a[0]]
        pos, end = t.pos, toks[b[1] - 1].end
        mid = src[toks[a[1] - 1].end:toks[b[0]].pos]
        out.append(Mutant(path, t.line, t.col, "swap", pos, end, tb + mid + ta,
                          src[pos:end]))
    return out


# --- the map: areas, files and their tests --------------------------------------

class MapError(Exception):
    pass


def read_map(path):
    """tests/mutants.map: '[AREA]' lines open an area; 'FILE: TEST...' lines
    name a file of that area and the tests that exercise it, in the order they
    run (the first failure kills); 'FILE: = OTHER' takes OTHER's tests;
    'VAR=VALUE' before a test sets it in that test's environment.  A test
    is a program of the build tree or a script of the source tree (.sh), with
    '@LEVEL' for its TEST_LEVEL (1 when absent) and '@LEVEL:K' to run it with
    TEST_SAMPLE=K:1 (the first point of each class and one in K of the rest)."""
    areas, tests, order = {}, {}, []
    area = None
    try:
        f = open(path)
    except OSError as e:
        raise MapError("%s: %s" % (path, e.strerror))
    with f:
        for no, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            m = re.match(r"^\[([a-z0-9-]+)\]$", text)
            if m:
                area = m.group(1)
                areas.setdefault(area, [])
                continue
            m = re.match(r"^(\S+):\s*(.*)$", text)
            if not m or area is None:
                raise MapError("%s:%d: expected '[AREA]' or 'FILE: TEST...'" % (path, no))
            file, rest = m.group(1), m.group(2).split()
            if not rest:
                raise MapError("%s:%d: %s has no tests" % (path, no, file))
            if rest[0] == "=":
                if len(rest) != 2 or rest[1] not in tests:
                    raise MapError("%s:%d: '= FILE' must name one file listed above"
                                   % (path, no))
                rest = tests[rest[1]]
            if file in tests:
                raise MapError("%s:%d: %s is listed twice" % (path, no, file))
            specs, env = [], []
            for t in rest:
                if re.match(r"^[A-Z_][A-Z0-9_]*=[\w.,:/-]*$", t):
                    env.append(t)
                    continue
                if not re.match(r"^[\w./-]+(@[0-2](:[1-9][0-9]*)?)?$", t):
                    raise MapError("%s:%d: '%s' is not a test (PATH, PATH@LEVEL or "
                                   "PATH@LEVEL:K)"
                                   % (path, no, t))
                specs.append(" ".join(env + [t]))
                env = []
            if env or not specs:
                raise MapError("%s:%d: VAR=VALUE must come before a test" % (path, no))
            areas[area].append(file)
            tests[file] = specs
            order.append(file)
    if not order:
        raise MapError("%s: no files" % path)
    return areas, tests


def select(srcdir, areas, args):
    """The mutants of the run: by --mutant/--ids, or by area and file, sampled."""
    file_area = {f: a for a, fs in areas.items() for f in fs}
    wanted_ids = list(args.mutant or [])
    if args.ids:
        try:
            with open(args.ids) as f:
                wanted_ids += [ln.split()[0] for ln in f if ln.strip() and
                               not ln.startswith("#")]
        except OSError as e:
            die("--ids %s: %s" % (args.ids, e.strerror))
    cache = {}

    def all_of(file):
        if file not in cache:
            try:
                with open(os.path.join(srcdir, file)) as f:
                    src = f.read()
            except OSError as e:
                die("%s: %s" % (file, e.strerror), 1)
            cache[file] = (src, mutants_of(file, src))
        return cache[file]

    if wanted_ids:
        out = []
        for mid in wanted_ids:
            m = re.match(r"^(.+):(\d+):(\d+):([\w+-]+)$", mid)
            if not m:
                die("'%s' is not a mutant ID (FILE:LINE:COLUMN:KIND)" % mid)
            if m.group(1) not in file_area:
                die("%s: not a file of the map" % m.group(1))
            hit = [x for x in all_of(m.group(1))[1] if x.id == mid]
            if not hit:
                die("%s: no such mutant in the current source" % mid)
            out.append(hit[0])
        return out, cache
    for a in args.area or []:
        if a not in areas:
            die("--area %s: not an area of the map (%s)" % (a, ", ".join(sorted(areas))))
    for f in args.file or []:
        if f not in file_area:
            die("--file %s: not a file of the map" % f)
    kinds = set(args.kinds.split(",")) if getattr(args, "kinds", None) else None
    out = []
    for area in sorted(areas):
        if args.area and area not in args.area:
            continue
        files = [f for f in areas[area] if not args.file or f in args.file]
        pool = [m for f in sorted(files) for m in all_of(f)[1]
                if (kinds is None or m.kind in kinds) and
                (not getattr(args, "device", False) or m.device)]
        if args.sample and len(pool) > args.sample:
            # The first N of a seeded order: a smaller sample of a seed is a
            # part of a larger one.
            random.Random("%d:%s" % (args.seed, area)).shuffle(pool)
            pool = pool[:args.sample]
            pool.sort(key=lambda m: (m.file, m.line, m.col, m.kind))
        out.extend(pool)
    return out, cache


# --- building and running -------------------------------------------------------

def die(msg, code=2):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(code)


def sh(cmd, cwd=None, timeout=None, env=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout, env=env, universal_newlines=True)
    return p.returncode, p.stdout


class Worker:
    """One scratch tree: a copy of the distribution's sources (src/) and a
    build of it (build/), configured without CUDA, without static libraries
    and without debug information, so that an object's bytes depend only on
    its code."""

    def __init__(self, root, builddir, n, log):
        self.dir = os.path.join(root, "w%d" % n)
        self.src = os.path.join(self.dir, "src")
        self.build = os.path.join(self.dir, "build")
        self.topbuild = builddir
        self.log = log
        self.orig = {}  # object path -> bytes of the original build

    def configure(self, dist, options, expect=None):
        """Syncs src/ with dist/ (the tree's sources) and configures build/
        with options, once; expect, when given, must match configure's
        output."""
        os.makedirs(self.dir, exist_ok=True)
        if not os.path.isdir(self.src):
            shutil.copytree(dist, self.src, symlinks=True)
        else:
            sync_tree(dist, self.src)
        if not os.path.exists(os.path.join(self.build, "Makefile")):
            os.makedirs(self.build, exist_ok=True)
            rc, out = sh(["../src/configure"] + options, cwd=self.build)
            if rc or (expect and not re.search(expect, out, re.M)):
                self.log(out)
                os.unlink(os.path.join(self.build, "Makefile"))
                die("configure %s failed in %s" % (" ".join(options), self.build), 1)

    def prepare(self, dist, programs):
        """Configures once (without CUDA), builds the library and the test
        programs, keeps the objects' bytes."""
        self.configure(dist, ["--without-cuda", "--disable-static",
                              "CFLAGS=-O2 -g0 -Werror=incompatible-pointer-types "
                              "-Werror=int-conversion"])
        rc, out = self.make(["libsoftmma.la"] + programs)
        if rc:
            self.log(out)
            die("the unmutated scratch build failed in %s" % self.build, 1)
        # The command libtool links the shared library with, run directly
        # for a mutant of the library's own sources (libtool's own work
        # around it, the .la file and the links, does not change).
        self.link = None
        la = os.path.join(self.build, "libsoftmma.la")
        os.unlink(la)
        rc, out = self.make(["V=1", "libsoftmma.la"])
        for ln in out.splitlines():
            if ln.startswith("libtool: link: ") and " -shared " in ln:
                self.link = ln[len("libtool: link: "):]
        if rc or not self.link:
            self.log(out)
            die("cannot find the link command of libsoftmma.so in %s" % self.build, 1)
        self.deps = read_deps(self.build)
        self.closure = self.link_closure(programs)
        self.orig = {}
        for objs in self.deps.values():
            for o in objs:
                if o not in self.orig:
                    self.orig[o] = read_bytes(os.path.join(self.build, object_file(o)))

    def make(self, targets, timeout=900):
        try:
            return sh(["make", "-s", "--no-print-directory"] + targets, cwd=self.build,
                      timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, "make timed out"

    def link_closure(self, programs):
        """Program -> the make targets of every object linked into it (its own
        and those of the libraries of this build it links)."""
        names = {}
        for prog in programs:
            c = re.sub(r"[^A-Za-z0-9]", "_", prog)
            names[prog] = (c + "_OBJECTS", c + "_LDADD")
        libs = {"libsoftmma.la": "libsoftmma_la_OBJECTS",
                "gpu/libsoftmma_gpu.a": "gpu_libsoftmma_gpu_a_OBJECTS",
                "tests/tap/libtap.a": "tests_tap_libtap_a_OBJECTS"}
        wanted = sorted({v for pair in names.values() for v in pair} | set(libs.values()))
        rule = "".join("print-%s:\n\t@echo '%s: '$(%s)\n" % (v, v, v) for v in wanted)
        p = subprocess.run(["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-"]
                           + ["print-" + v for v in wanted], input=rule, cwd=self.build,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        vals = {}
        for ln in p.stdout.splitlines():
            k, _, v = ln.partition(": ")
            vals[k] = v.split()
        out = {}
        for prog, (objs, ldadd) in names.items():
            have = set(vals.get(objs, []))
            for lib, var in libs.items():
                if lib in vals.get(ldadd, []) or lib == "libsoftmma.la":
                    have |= set(vals.get(var, []))
            out[prog] = have
        return out

    def objects_of(self, file, programs):
        """The objects that include file and are linked into the programs."""
        deps = self.deps.get(os.path.normpath(os.path.join(self.src, file)), set())
        linked = set()
        for prog in programs:
            linked |= self.closure.get(prog, set())
        return sorted(deps & linked)


# What ./bootstrap writes beside the files git tracks.
BOOTSTRAPPED = ["configure", "Makefile.in", "aclocal.m4", "config.h.in", "build-aux",
                "m4/libtool.m4", "m4/ltoptions.m4", "m4/ltsugar.m4", "m4/ltversion.m4",
                "m4/lt~obsolete.m4"]


def copy_sources(srcdir, builddir, dest, log):
    """The source tree as it is now into dest: in a git checkout the files git
    tracks and what ./bootstrap wrote; elsewhere (a tarball) make distdir."""
    rc, out = 1, ""
    if os.path.isdir(os.path.join(srcdir, ".git")) or \
            os.path.isfile(os.path.join(srcdir, ".git")):
        try:
            rc, out = sh(["git", "ls-files", "-z"], cwd=srcdir)
        except OSError:
            rc = 1
    if rc == 0:
        names = [x for x in out.split("\0") if x] + BOOTSTRAPPED
        for name in names:
            a, b = os.path.join(srcdir, name), os.path.join(dest, name)
            if os.path.isdir(a):
                shutil.copytree(a, b, symlinks=True)
            elif os.path.exists(a):
                os.makedirs(os.path.dirname(b), exist_ok=True)
                shutil.copy2(a, b)
        return
    rc, out = sh(["make", "-s", "distdir", "distdir=" + dest], cwd=builddir)
    if rc:
        log(out)
        die("make distdir failed in %s" % builddir, 1)


def scratch_sources(work, srcdir, builddir):
    """work/dist, a fresh copy of the tree's sources, and a function that
    appends to work/log."""
    os.makedirs(work, exist_ok=True)
    logf = open(os.path.join(work, "log"), "a")

    def log(text):
        logf.write(text + "\n")
        logf.flush()

    dist = os.path.join(work, "dist")
    shutil.rmtree(dist, ignore_errors=True)
    copy_sources(srcdir, builddir, dist, log)
    return dist, log


def sync_tree(dist, dst):
    for root, dirs, files in os.walk(dist):
        rel = os.path.relpath(root, dist)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for name in files:
            a, b = os.path.join(root, name), os.path.join(dst, rel, name)
            if not os.path.exists(b) or read_bytes(a) != read_bytes(b):
                shutil.copy2(a, b)
                os.utime(b, None)


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def object_file(target):
    """The object a make target leaves: libtool keeps a .lo's code in .libs/."""
    if target.endswith(".lo"):
        d, b = os.path.split(target)
        return os.path.join(d, ".libs", b[:-3] + ".o")
    return target


def read_deps(build):
    """Source or header (absolute path) -> the make targets of the objects
    that include it, from the dependency files the compiler wrote."""
    deps = {}
    for root, dirs, files in os.walk(build):
        if os.path.basename(root) != ".deps":
            continue
        for name in files:
            if not name.endswith((".Plo", ".Po")):
                continue
            with open(os.path.join(root, name)) as f:
                text = f.read().replace("\\\n", " ")
            m = re.match(r"\s*(\S+)\s*:(.*)", text)
            if not m:
                continue
            target = m.group(1)
            for dep in m.group(2).split("\n", 1)[0].split():
                p = os.path.normpath(os.path.join(build, dep))
                deps.setdefault(p, set()).add(target)
    return deps


def run_test(w, test, timeout):
    """Runs one test against the scratch build: 'pass', 'fail' or 'timeout'."""
    path, level, sample, extra = parse_test(test)
    env = dict(os.environ, SMMA_SRCDIR=w.src, SMMA_BUILDDIR=w.build,
               TEST_LEVEL=level, SMMA_VALGRIND="",
               TEST_SAMPLE=sample + ":1" if sample else "", SMMA_CUDA_ARCHS="")
    env.update(extra)
    if path.endswith(".sh"):
        cmd = ["sh", os.path.join(w.src, path)]
    else:
        cmd = [os.path.join(w.build, path)]
    try:
        p = subprocess.Popen(cmd, cwd=w.build, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, env=env, start_new_session=True)
    except OSError:
        return "fail", "cannot run %s" % path
    # The first 'not ok' or 'Bail out!' decides: the test is stopped there.
    state = {"timeout": False}

    def expire():
        state["timeout"] = True
        stop(p)

    timer = threading.Timer(timeout, expire)
    timer.start()
    lines = []
    try:
        for raw in p.stdout:
            ln = raw.decode("utf-8", "replace")
            lines.append(ln)
            if (ln.startswith("not ok") and "# TODO" not in ln) or \
                    ln.startswith("Bail out!"):
                stop(p)
                p.wait()
                return "fail", "".join(lines)
        p.wait()
    finally:
        timer.cancel()
    if state["timeout"]:
        return "timeout", "".join(lines)
    out = "".join(lines)
    return ("pass" if tap_passed(p.returncode, out) else "fail"), out


def stop(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except OSError:
        pass


def parse_test(test):
    """A test of the map: its path, TEST_LEVEL, K of TEST_SAMPLE (or ''), and
    the environment set before it."""
    words = test.split()
    path, _, level = words[-1].partition("@")
    level, _, sample = level.partition(":")
    return path, level or "1", sample, dict(w.split("=", 1) for w in words[:-1])


def test_program(test):
    return parse_test(test)[0]


def tap_passed(rc, out):
    """A TAP run passes when it exits 0, has a plan of N > 0 points or a skip,
    prints N points, none 'not ok' (TODO aside), and does not bail out."""
    if rc != 0:
        return False
    plan, count, bad = None, 0, False
    for ln in out.splitlines():
        if ln.startswith("Bail out!"):
            return False
        m = re.match(r"^1\.\.(\d+)", ln)
        if m:
            plan = int(m.group(1))
        elif ln.startswith("ok"):
            count += 1
        elif ln.startswith("not ok"):
            count += 1
            if "# TODO" not in ln:
                bad = True
    return plan is not None and count == plan and not bad


class Results:
    def __init__(self, path):
        self.lock = threading.Lock()
        self.rows = {}
        self.path = path
        self.fh = open(path, "w") if path else None

    def put(self, m, status, secs, test=""):
        with self.lock:
            self.rows[m.id] = (m, status, secs, test)
            if self.fh:
                self.fh.write("%s\t%s\t%.1f\t%s\n" % (m.id, status, secs, test))
                self.fh.flush()


def run_file(w, file, mutants, srcs, tests, cap, results, progress, listed):
    """The mutants of one file, one after another in worker w; the file is
    restored (and its objects rebuilt and checked) at the end."""
    path = os.path.join(w.src, file)
    original = srcs[file]
    programs = [test_program(t) for t in tests[file] if not test_program(t).endswith(".sh")]
    if any(t.endswith(".sh") for t in tests[file]):
        programs.append("tools/softmma")
    objs = w.objects_of(file, programs)
    if not objs:
        die("%s: no object of its tests includes it" % file, 1)
    lib_only = all(o.endswith(".lo") for o in objs)
    relink = ["libsoftmma.la"] if any(o.endswith(".lo") for o in objs) else []
    relink += [] if lib_only else programs
    try:
        for m in mutants:
            t0 = time.time()
            if m.id in listed:
                results.put(m, "listed", 0.0)
                progress()
                continue
            write_text(path, m.apply(original))
            rc, out = w.make(objs)
            if rc:
                results.put(m, "stillborn", time.time() - t0)
                progress()
                continue
            if all(read_bytes(os.path.join(w.build, object_file(o))) == w.orig[o]
                   for o in objs):
                results.put(m, "equivalent", time.time() - t0)
                progress()
                continue
            if lib_only:
                rc, out = sh(["sh", "-c", w.link], cwd=w.build)
            else:
                rc, out = w.make(relink)
            if rc:
                results.put(m, "stillborn", time.time() - t0)
                progress()
                continue
            status, by = "survived", ""
            for t in tests[file]:
                r, _ = run_test(w, t, cap[t])
                if r != "pass":
                    status, by = ("timeout" if r == "timeout" else "killed"), t
                    break
            results.put(m, status, time.time() - t0, by)
            progress()
    finally:
        write_text(path, original)
        rc, out = w.make(objs + relink)
        changed = [o for o in objs
                   if read_bytes(os.path.join(w.build, object_file(o))) != w.orig[o]]
        if rc or changed:
            die("%s: restoring the original did not give back its objects (%s)"
                % (file, ", ".join(changed) or out.strip()), 1)


def write_text(path, text):
    with open(path, "w") as f:
        f.write(text)
    now = time.time_ns()
    os.utime(path, ns=(now, now))


def cmd_run(args, srcdir):
    areas, tests = load_map(args, srcdir)
    chosen, cache = select(srcdir, areas, args)
    srcs = {f: v[0] for f, v in cache.items()}
    if not chosen:
        die("no mutants selected")
    listed = read_listed(args.equivalent or os.path.join(srcdir, "tests", "mutants.equiv"))
    for mid in sorted(listed):
        f = mid.split(":", 1)[0]
        if f in srcs and not any(m.id == mid for m in cache[f][1]):
            sys.stderr.write("mutate: warning: %s of the equivalents names no mutant of the "
                             "current source\n" % mid)
    builddir = os.path.abspath(args.builddir)
    if not os.path.exists(os.path.join(builddir, "Makefile")):
        die("--builddir %s: not a configured build tree" % args.builddir)
    work = os.path.abspath(args.work or os.path.join(builddir, "_mutants"))
    t_start = time.time()
    say("mutate: %d mutants (seed %d, sample %s per area) in %s, %d job(s)"
        % (len(chosen), args.seed, args.sample or "all", work, args.jobs))
    dist, log = scratch_sources(work, srcdir, builddir)
    files = sorted({m.file for m in chosen})
    all_tests = sorted({t for f in files for t in tests[f]})
    programs = sorted({test_program(t) for t in all_tests
                       if not test_program(t).endswith(".sh")})
    if any(t.endswith(".sh") for t in all_tests):
        programs.append("tools/softmma")
    workers = [Worker(work, builddir, n, log) for n in range(args.jobs)]
    errors = []

    def prepare(w):
        try:
            w.prepare(dist, programs)
        except SystemExit as e:
            errors.append(e)

    threads = [threading.Thread(target=prepare, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        return 1
    # The baseline: every test passes unmutated; its time sets the cap.  The
    # workers share the tests out.
    cap, bad = {}, []

    def baseline(w, ts):
        for t in ts:
            t0 = time.time()
            r, out = run_test(w, t, 600)
            secs = time.time() - t0
            if r != "pass" or re.search(r"^1\.\.0\b", out, re.M):
                log(out)
                bad.append("%s %s" % (t, "skips" if r == "pass" else "fails"))
            cap[t] = args.timeout if args.timeout else max(10.0, 4 * secs + 5)

    threads = [threading.Thread(target=baseline, args=(w, all_tests[i::len(workers)]))
               for i, w in enumerate(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if bad:
        die("baseline: %s unmutated (see %s/log)" % (", ".join(sorted(bad)), work), 1)
    say("mutate: scratch builds ready, baseline passes (%.0f s)" % (time.time() - t_start))
    results = Results(args.results)
    done = [0]
    lock = threading.Lock()

    def progress():
        with lock:
            done[0] += 1
            if done[0] % 100 == 0:
                say("mutate: %d of %d (%.0f s)" % (done[0], len(chosen),
                                                  time.time() - t_start))

    # Files go to workers, the largest first, each to the least loaded.
    by_file = {}
    for m in chosen:
        by_file.setdefault(m.file, []).append(m)
    queues = [[] for _ in workers]
    loads = [0] * len(workers)
    for f in sorted(by_file, key=lambda f: (-len(by_file[f]) * cost(tests[f]), f)):
        i = loads.index(min(loads))
        queues[i].append(f)
        loads[i] += len(by_file[f]) * cost(tests[f])

    def work_on(w, q):
        try:
            for f in q:
                run_file(w, f, by_file[f], srcs, tests, cap, results, progress, listed)
        except SystemExit as e:
            errors.append(e)

    threads = [threading.Thread(target=work_on, args=(w, q)) for w, q in zip(workers, queues)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        sys.exit(1)
    per_area = report(results, areas, time.time() - t_start, args)
    low = []
    for bar in args.bar or []:
        a, _, pct = bar.partition("=")
        c = per_area.get(a)
        if c is None:
            continue
        k, n = c["killed"] + c["timeout"], c["killed"] + c["timeout"] + c["survived"]
        if n and 100.0 * k < float(pct) * n:
            low.append("%s %.1f%% < %s%%" % (a, 100.0 * k / n, pct))
    if low:
        say("mutate: FAILED: below the bar: " + ", ".join(low))
        return 1
    return 0


def open_or_die(path):
    """The file at path, open for reading, or the end of the program (exit 2)
    with a message naming it."""
    try:
        return open(path)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))


def read_listed(path):
    """tests/mutants.equiv: 'ID REASON' lines, the mutants judged equivalent
    although their object code differs, each with its one-line reason."""
    out = {}
    with open_or_die(path) as f:
        for no, ln in enumerate(f, 1):
            if not ln.strip() or ln.startswith("#"):
                continue
            parts = ln.split(None, 1)
            if not re.match(r"^.+:\d+:\d+:[\w+-]+$", parts[0]) or len(parts) < 2:
                die("%s:%d: expected 'ID REASON'" % (path, no))
            out[parts[0]] = parts[1].strip()
    return out


def cost(tests):
    return len(tests)


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def report(results, areas, secs, args):
    file_area = {f: a for a, fs in areas.items() for f in fs}
    kinds = ("killed", "timeout", "survived", "equivalent", "listed", "stillborn")
    per_file, per_area = {}, {}
    for m, status, _, _ in results.rows.values():
        for key, table in ((m.file, per_file), (file_area[m.file], per_area)):
            table.setdefault(key, dict.fromkeys(kinds, 0))[status] += 1
    say("")
    say("%-28s %7s %7s %8s %10s %6s %9s %7s" % ("file", "killed", "timeout", "survived",
                                                "equivalent", "listed", "stillborn",
                                                "score"))
    for f in sorted(per_file, key=lambda f: (file_area[f], f)):
        say(row(f, per_file[f]))
    say("")
    for a in sorted(per_area):
        say(row("[%s]" % a, per_area[a]))
    say("")
    for a in sorted(per_area):
        c = per_area[a]
        k, n = c["killed"] + c["timeout"], c["killed"] + c["timeout"] + c["survived"]
        say("%s: killed %d of %d%s (%d by the time cap); equivalent %d (%d identical "
            "objects, %d listed); %d stillborn"
            % (a, k, n, " (%.1f%%)" % (100.0 * k / n) if n else "", c["timeout"],
               c["equivalent"] + c["listed"], c["equivalent"], c["listed"], c["stillborn"]))
    if args.cmd == "report":
        say("time: %.0f s of the mutants' own (build and tests, summed over the jobs)" % secs)
    else:
        say("time: %.0f s, %d job(s), seed %d, sample %s per area"
            % (secs, args.jobs, args.seed, args.sample or "all"))
    surv = sorted((m for m, s, _, _ in results.rows.values() if s == "survived"),
                  key=lambda m: (m.file, m.line, m.col, m.kind))
    if surv:
        say("")
        say("survivors (one re-runs with: tools/mutate.py run --builddir . --mutant ID):")
        for m in surv:
            say("  %s  %s" % (m.id, m.describe()))
    return per_area


def row(name, c):
    k, n = c["killed"] + c["timeout"], c["killed"] + c["timeout"] + c["survived"]
    score = "%.1f%%" % (100.0 * k / n) if n else "-"
    return "%-28s %7d %7d %8d %10d %6d %9d %7s" % (name, c["killed"], c["timeout"],
                                                  c["survived"], c["equivalent"], c["listed"],
                                                  c["stillborn"], score)


def load_map(args, srcdir):
    try:
        return read_map(args.map or os.path.join(srcdir, "tests", "mutants.map"))
    except MapError as e:
        die(str(e))


# --- the GPU sample ---------------------------------------------------------------

# Address, index and conversion arithmetic: the kinds of the GPU sample.
GPU_KINDS = "add,sub,mul,div,and,or,shl,shr,c+1,c-1,shift+1,shift-1,widen,narrow"


def includers(src, file):
    """The .cu files of the tree under src that include file, directly or
    through other quoted includes, as paths relative to src."""
    graph = {}
    for root, dirs, files in os.walk(os.path.join(src, "gpu")):
        for name in files:
            if name.endswith((".cu", ".cuh")):
                path = os.path.relpath(os.path.join(root, name), src)
                with open(os.path.join(src, path)) as f:
                    inc = re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M)
                graph[path] = {os.path.normpath(os.path.join(os.path.dirname(path), i))
                               for i in inc}
    out, todo = set(), [file]
    while todo:
        x = todo.pop()
        for path, inc in graph.items():
            if x in inc and path not in out:
                out.add(path)
                todo.append(path)
    if file.endswith(".cu"):
        out.add(file)
    return sorted(p for p in out if p.endswith(".cu"))


def cmd_gpu_build(args, srcdir):
    """Builds the GPU sample: the first N mutants of a seeded order of the
    device code's arithmetic mutants whose object code differs from the
    original's, each linked into the test program of its file, statically,
    for args.cuda_arch; packs them, the unmutated programs and a manifest
    into one archive (xz: the programs share most of their bytes)."""
    areas, tests = load_map(args, srcdir)
    args.device = True
    args.kinds = args.kinds or GPU_KINDS
    n_wanted, args.sample = args.sample, 0
    pool, cache = select(srcdir, areas, args)
    if not pool:
        die("no mutants selected")
    random.Random("%d:gpu" % args.seed).shuffle(pool)
    builddir = os.path.abspath(args.builddir)
    work = os.path.abspath(args.work or os.path.join(builddir, "_mutants-gpu"))
    out_dir = os.path.join(work, "sample")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)

    dist, log = scratch_sources(work, srcdir, builddir)
    w = Worker(work, builddir, 0, log)
    w.configure(dist, ["--with-cuda-arch=" + args.cuda_arch, "--disable-shared",
                       "CFLAGS=-O2 -g0"], r"^  CUDA: +yes")
    programs = sorted({test_program(t) for f in areas["gpu"] for t in tests[f]})
    say("mutate: building the unmutated GPU tests for %s in %s" % (args.cuda_arch, w.build))
    rc, out = w.make(["-j%d" % args.jobs] + programs, timeout=7200)
    if rc:
        log(out)
        die("the unmutated GPU build failed in %s (see %s/log)" % (w.build, work), 1)
    os.makedirs(os.path.join(out_dir, "base"))
    for prog in programs:
        shutil.copy2(os.path.join(w.build, prog),
                     os.path.join(out_dir, "base", os.path.basename(prog)))
    manifest = []
    built = 0
    for m in pool:
        if built >= n_wanted:
            break
        t0 = time.time()
        src = cache[m.file][0]
        cus = includers(w.src, m.file)
        objs = [c[:-3] + ".o" for c in cus]
        orig = {o: read_bytes(os.path.join(w.build, o)) for o in objs}
        status = "built"
        try:
            write_text(os.path.join(w.src, m.file), m.apply(src))
            for o in objs:
                os.unlink(os.path.join(w.build, o))
            rc, out = w.make(["-j%d" % args.jobs] + objs, timeout=3600)
            if rc:
                status = "stillborn"
            elif all(read_bytes(os.path.join(w.build, o)) == orig[o] for o in objs):
                status = "equivalent"
            else:
                progs = sorted({test_program(t) for t in tests[m.file]})
                rc, out = w.make(progs, timeout=3600)
                if rc:
                    status = "stillborn"
                else:
                    d = os.path.join(out_dir, "%02d" % (built + 1))
                    os.makedirs(d)
                    for prog in progs:
                        shutil.copy2(os.path.join(w.build, prog),
                                     os.path.join(d, os.path.basename(prog)))
                    built += 1
        finally:
            write_text(os.path.join(w.src, m.file), src)
            for o in objs:
                with open(os.path.join(w.build, o), "wb") as f:
                    f.write(orig[o])
        slot = "%02d" % built if status == "built" else "-"
        manifest.append("%s\t%s\t%s\t%s\t%s" % (slot, m.id, status,
                                                 "|".join(tests[m.file]), m.describe()))
        say("mutate: %s %s %s (%.0f s)" % (slot, m.id, status, time.time() - t0))
    # The unmutated objects are back: the programs are relinked from them.
    rc, out = w.make(programs)
    with open(os.path.join(out_dir, "manifest.tsv"), "w") as f:
        f.write("# tools/mutate.py gpu-build --seed %d --sample %d --cuda-arch %s\n"
                % (args.seed, n_wanted, args.cuda_arch))
        f.write("\n".join(manifest) + "\n")
    archive = os.path.abspath(args.out)
    tmp = archive + ".tmp"
    filters = [{"id": lzma.FILTER_LZMA2, "preset": 6, "dict_size": 192 << 20}]
    with lzma.open(tmp, "w", format=lzma.FORMAT_XZ, filters=filters) as xz:
        with tarfile.open(fileobj=xz, mode="w|") as tar:
            tar.add(out_dir, arcname="mutants-gpu")
    os.replace(tmp, archive)
    say("mutate: %d mutants built (%d drawn); %s: %.1f MiB"
        % (built, len(manifest), archive, os.path.getsize(archive) / 1048576.0))
    return 0 if built == n_wanted else 1


def cmd_gpu_run(args, srcdir):
    """Runs the GPU sample of an archive of gpu-build on this machine's GPU:
    the unmutated programs first (each must pass), then each mutant's, and
    prints killed K of N."""
    work = os.path.abspath(args.work or "mutants-gpu-run")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        with lzma.open(args.archive) as xz, tarfile.open(fileobj=xz, mode="r|") as tar:
            tar.extractall(work)
    except (OSError, lzma.LZMAError, tarfile.TarError) as e:
        die("%s: %s" % (args.archive, e), 1)
    root = os.path.join(work, "mutants-gpu")
    rows, arch = [], ""
    with open(os.path.join(root, "manifest.tsv")) as f:
        for ln in f:
            m = re.match(r"^#.* --cuda-arch (\S+)", ln)
            if m:
                arch = m.group(1)
            if not ln.startswith("#") and ln.strip():
                rows.append(ln.rstrip("\n").split("\t"))
    vec = os.path.abspath(args.vectors or srcdir)

    class Here:
        src = vec
        build = root

    def run(prog_dir, test, cap):
        path, level, sample, extra = parse_test(test)
        exe = os.path.join(prog_dir, os.path.basename(path))
        os.chmod(exe, 0o755)
        extra["SMMA_CUDA_ARCHS"] = arch
        spec = " ".join(["%s=%s" % kv for kv in extra.items()] +
                        [os.path.relpath(exe, root) + "@" + level])
        return run_test(Here, spec, cap)

    cap = {}
    for t in sorted({t for r in rows for t in r[3].split("|")}):
        t0 = time.time()
        r, out = run(os.path.join(root, "base"), t, 3600)
        secs = time.time() - t0
        if r != "pass" or re.search(r"^1\.\.0\b", out, re.M):
            sys.stdout.write(out[-4000:])
            die("baseline: %s %s unmutated: no mutant's result would mean anything"
                % (t, "skips" if r == "pass" else "fails"), 1)
        cap[t] = max(60.0, 4 * secs + 10)
        say("mutate: baseline %s passes (%.0f s)" % (t, secs))
    counts = dict.fromkeys(("killed", "timeout", "survived", "equivalent", "stillborn"), 0)
    surv = []
    for slot, mid, status, spec, desc in rows:
        if status != "built":
            counts[status] += 1
            say("%s %s %s" % (slot, mid, status))
            continue
        result, by = "survived", ""
        for t in spec.split("|"):
            r, _ = run(os.path.join(root, slot), t, cap[t])
            if r != "pass":
                result, by = ("timeout" if r == "timeout" else "killed"), t
                break
        counts[result] += 1
        if result == "survived":
            surv.append("  %s  %s" % (mid, desc))
        say("%s %s %s %s" % (slot, mid, result, by))
    k = counts["killed"] + counts["timeout"]
    n = k + counts["survived"]
    say("gpu: killed %d of %d%s (%d by the time cap); %d equivalent, %d stillborn"
        % (k, n, " (%.1f%%)" % (100.0 * k / n) if n else "", counts["timeout"],
           counts["equivalent"], counts["stillborn"]))
    if surv:
        say("survivors:")
        for x in surv:
            say(x)
    return 0


def cmd_report(args, srcdir):
    """The table of results files of earlier runs (--results), the later
    result of a mutant replacing an earlier one."""
    areas, tests = load_map(args, srcdir)
    file_area = {f: a for a, fs in areas.items() for f in fs}
    results = Results(None)
    cache = {}
    for path in args.files:
        with open_or_die(path) as f:
            for no, ln in enumerate(f, 1):
                parts = ln.rstrip("\n").split("\t")
                m = re.match(r"^(.+):(\d+):(\d+):([\w+-]+)$", parts[0])
                if len(parts) < 3 or not m or parts[1] not in (
                        "killed", "timeout", "survived", "equivalent", "listed", "stillborn"):
                    die("%s:%d: not a line of --results" % (path, no))
                if m.group(1) not in file_area:
                    die("%s:%d: %s is not a file of the map" % (path, no, m.group(1)))
                if m.group(1) not in cache:
                    with open(os.path.join(srcdir, m.group(1))) as g:
                        cache[m.group(1)] = {x.id: x for x in mutants_of(m.group(1), g.read())}
                mut = cache[m.group(1)].get(parts[0])
                if mut is None:
                    die("%s:%d: %s names no mutant of the current source" % (path, no, parts[0]))
                results.put(mut, parts[1], float(parts[2]), parts[3] if len(parts) > 3 else "")
    listed = read_listed(args.equivalent or os.path.join(srcdir, "tests", "mutants.equiv"))
    for mid, (mut, status, secs, by) in list(results.rows.items()):
        if mid in listed and status == "survived":
            results.put(mut, "listed", secs)
    args.jobs = args.jobs or 0
    secs = sum(r[2] for r in results.rows.values())
    report(results, areas, secs, args)
    return 0


def cmd_list(args, srcdir):
    areas, tests = load_map(args, srcdir)
    chosen, _ = select(srcdir, areas, args)
    for m in chosen:
        say("%s\t%s" % (m.id, m.describe()))


def cmd_show(args, srcdir):
    areas, tests = load_map(args, srcdir)
    args.mutant, args.ids = args.ids_pos, None
    chosen, cache = select(srcdir, areas, args)
    for m in chosen:
        src = cache[m.file][0]
        new = m.apply(src)
        a = src.splitlines()[m.line - 1]
        b = new.splitlines()[m.line - 1]
        say("%s\n- %s\n+ %s" % (m.id, a, b))


def positive(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not a whole number" % text)
    if v < 0:
        raise argparse.ArgumentTypeError("'%s' is negative" % text)
    return v


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(prog=PROG, description="mutation testing of softmma")
    p.add_argument("--srcdir", default=os.path.dirname(here),
                   help="the source tree (default: the one this script is in)")
    p.add_argument("--map", help="the map of files to tests (default SRCDIR/tests/mutants.map)")
    sub = p.add_subparsers(dest="cmd")

    def common(q):
        q.add_argument("--seed", type=positive, default=1)
        q.add_argument("--sample", type=positive, default=2000,
                       help="mutants per area at most (0: all)")
        q.add_argument("--area", action="append")
        q.add_argument("--file", action="append")
        q.add_argument("--mutant", action="append", help="one mutant by ID")
        q.add_argument("--ids", help="a file of mutant IDs, one a line")
        q.add_argument("--kinds", help="only these kinds of mutant (KIND,KIND...)")
        q.add_argument("--device", action="store_true",
                       help="only mutants inside functions compiled for the GPU")

    q = sub.add_parser("list")
    common(q)
    q = sub.add_parser("show")
    q.add_argument("ids_pos", nargs="+", metavar="ID")
    q = sub.add_parser("run")
    common(q)
    q.add_argument("--builddir", required=True)
    q.add_argument("--work", help="the scratch directory (default BUILDDIR/_mutants)")
    q.add_argument("--jobs", type=positive, default=2)
    q.add_argument("--timeout", type=positive, default=0,
                   help="seconds a test may take under a mutant (default 4 x its "
                   "baseline + 5, at least 10)")
    q.add_argument("--results", help="a file to write each mutant's result to (TSV)")
    q.add_argument("--equivalent", help="the mutants judged equivalent (default "
                   "SRCDIR/tests/mutants.equiv)")
    q.add_argument("--bar", action="append", metavar="AREA=PERCENT",
                   help="exit 1 when the area kills fewer of its mutants")
    q = sub.add_parser("report")
    q.add_argument("files", nargs="+", metavar="RESULTS")
    q.add_argument("--equivalent", help="the mutants judged equivalent (default "
                   "SRCDIR/tests/mutants.equiv): a survivor listed there counts as listed")
    q = sub.add_parser("gpu-build")
    common(q)
    q.add_argument("--builddir", required=True)
    q.add_argument("--work", help="the scratch directory (default BUILDDIR/_mutants-gpu)")
    q.add_argument("--out", default="mutants-gpu.tar.xz", help="the archive to write")
    q.add_argument("--cuda-arch", default="sm_90a")
    q.add_argument("--jobs", type=positive, default=2)
    q = sub.add_parser("gpu-run")
    q.add_argument("archive")
    q.add_argument("--work", help="where to unpack it (default ./mutants-gpu-run)")
    q.add_argument("--vectors", help="the source tree whose vectors/ the tests read "
                   "(default SRCDIR)")
    args = p.parse_args(argv)
    if not args.cmd:
        p.print_usage(sys.stderr)
        die("a command is needed: list, show or run")
    srcdir = os.path.abspath(args.srcdir)
    if args.cmd == "run" and args.jobs < 1:
        die("--jobs must be at least 1")
    for bar in getattr(args, "bar", None) or []:
        if not re.match(r"^[a-z0-9-]+=\d+(\.\d+)?$", bar):
            die("--bar %s: expected AREA=PERCENT" % bar)
    if args.cmd == "show":
        args.seed, args.sample, args.area, args.file = 1, 0, None, None
        return cmd_show(args, srcdir)
    if args.cmd == "report":
        args.seed, args.sample, args.jobs = 0, 0, 0
    return {"list": cmd_list, "run": cmd_run, "report": cmd_report,
            "gpu-build": cmd_gpu_build,
            "gpu-run": cmd_gpu_run}[args.cmd](args, srcdir)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]) or 0)
