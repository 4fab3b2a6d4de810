"""tests/python/tap.py - TAP output for the Python tests (the counterpart of
tests/tap/basic.h): a lazy plan printed at the end, ok, is_, skip, todo
points and diag lines."""

import sys


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def diag(self, *lines):
        for text in lines:
            for line in str(text).splitlines() or ['']:
                print('# ' + line)

    def ok(self, cond, desc, todo=None):
        """One point; todo (a reason) marks a point expected to fail today."""
        self.n += 1
        directive = ' # TODO ' + todo if todo else ''
        print('%s %d - %s%s' % ('ok' if cond else 'not ok', self.n, desc, directive))
        if not cond and not todo:
            self.failed += 1
        sys.stdout.flush()
        return bool(cond)

    def is_(self, want, seen, desc, todo=None):
        good = want == seen
        if not self.ok(good, desc, todo):
            self.diag('wanted: %r' % (want,), '  seen: %r' % (seen,))
        return good

    def raises(self, fn, needle, desc, exc=None):
        """A point that fn() raises exc (SoftmmaError by default) whose message
        contains needle."""
        import softmma
        exc = exc or softmma.SoftmmaError
        try:
            fn()
        except exc as e:
            if needle in str(e):
                return self.ok(True, desc)
            self.ok(False, desc)
            self.diag('message %r lacks %r' % (str(e), needle))
            return False
        except Exception as e:      # noqa: BLE001 - any other exception is a failure
            self.ok(False, desc)
            self.diag('raised %s: %s' % (type(e).__name__, e))
            return False
        self.ok(False, desc)
        self.diag('nothing was raised')
        return False

    def skip(self, desc, reason):
        self.n += 1
        print('ok %d - %s # SKIP %s' % (self.n, desc, reason))

    def done(self):
        print('1..%d' % self.n)
        sys.exit(1 if self.failed else 0)
