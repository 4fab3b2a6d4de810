dnl smma_python.m4 -- Python 3 for the module python/softmma/ (doc/python.md).
dnl
dnl SMMA_CHECK_PYTHON
dnl   Looks for a Python 3 interpreter with AM_PATH_PYTHON.  Without an
dnl   explicit PYTHON it first tries, in order, python3 in PATH and the
dnl   system's /usr/bin/python3, and takes the first that imports numpy, so
dnl   that a python3 without numpy earlier in PATH does not hide the Debian
dnl   one that has it; when none does, AM_PATH_PYTHON searches as usual.
dnl   Sets PYTHON (":" when there is no Python 3) and pythondir, the
dnl   conditional HAVE_PYTHON (the module is installed), and the shell
dnl   variable smma_python_summary for configure's summary.  Nothing else
dnl   depends on Python: without it or without numpy the module's tests skip.
AC_DEFUN([SMMA_CHECK_PYTHON],
[AS_IF([test -z "$PYTHON"], [
  for smma_py in python3 /usr/bin/python3; do
    AS_IF([$smma_py -c 'import numpy' >/dev/null 2>&1], [PYTHON=$smma_py; break])
  done])
AM_PATH_PYTHON([3.6], [], [:])
AM_CONDITIONAL([HAVE_PYTHON], [test "$PYTHON" != :])
AS_IF([test "$PYTHON" = :],
  [smma_python_summary="no: the Python module is not installed and its tests skip"],
  [AS_IF([$PYTHON -c 'import numpy' >/dev/null 2>&1],
    [smma_python_summary="$PYTHON (numpy: yes); module into $pythondir"],
    [smma_python_summary="$PYTHON (numpy: no, its tests skip); module into $pythondir"])])
])
