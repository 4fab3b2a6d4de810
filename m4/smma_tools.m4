dnl smma_tools.m4 -- optional tools for checking: valgrind, lcov, MPFR.
dnl
dnl SMMA_CHECK_VALGRIND
dnl   Looks for valgrind.  Substitutes VALGRIND (empty if absent); the
dnl   check-valgrind target refuses to run without it and says so.
AC_DEFUN([SMMA_CHECK_VALGRIND],
[AC_ARG_VAR([VALGRIND], [the valgrind program, for make check-valgrind])
AC_PATH_PROG([VALGRIND], [valgrind], [])
])

dnl SMMA_CHECK_COVERAGE
dnl   --enable-coverage compiles with gcov instrumentation (and -O0) so that
dnl   make check-coverage can report line and function coverage with lcov.
dnl   Substitutes COVERAGE_CFLAGS, COVERAGE_LDFLAGS, LCOV, GENHTML.
AC_DEFUN([SMMA_CHECK_COVERAGE],
[AC_ARG_ENABLE([coverage],
  [AS_HELP_STRING([--enable-coverage], [instrument the build for gcov/lcov])],
  [smma_coverage=$enableval], [smma_coverage=no])
AC_ARG_VAR([LCOV], [the lcov program, for make check-coverage])
AC_PATH_PROG([LCOV], [lcov], [])
COVERAGE_CFLAGS=
COVERAGE_LDFLAGS=
AS_IF([test "$smma_coverage" = yes], [
  COVERAGE_CFLAGS="--coverage -O0"
  COVERAGE_LDFLAGS="--coverage"])
AC_SUBST([COVERAGE_CFLAGS])
AC_SUBST([COVERAGE_LDFLAGS])
])

dnl SMMA_CHECK_MPFR
dnl   Looks for GNU MPFR (header and library), used only by the tests that
dnl   cross-check the exact accumulator.  Without it those tests skip with the
dnl   reason.  Defines HAVE_MPFR; substitutes MPFR_LIBS.
AC_DEFUN([SMMA_CHECK_MPFR],
[MPFR_LIBS=
have_mpfr=no
AC_CHECK_HEADER([mpfr.h],
  [AC_CHECK_LIB([mpfr], [mpfr_init2],
    [have_mpfr=yes
     MPFR_LIBS="-lmpfr -lgmp"
     AC_DEFINE([HAVE_MPFR], [1], [Define if GNU MPFR is available to the tests.])],
    [], [-lgmp])])
AC_SUBST([MPFR_LIBS])
])
