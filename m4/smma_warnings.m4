dnl smma_warnings.m4 -- probe C compiler warning flags one by one.
dnl
dnl SMMA_PROG_CC_WARNINGS
dnl   Tries each flag of a fixed list with the C compiler, adding it to
dnl   WARNINGS_CFLAGS only if a small program compiles with the flag and
dnl   -Werror.  A flag the compiler does not know is left out quietly, so the
dnl   list works with gcc and clang of any recent version.
dnl
dnl   Sets and substitutes: WARNINGS_CFLAGS.
AC_DEFUN([SMMA_PROG_CC_WARNINGS],
[AC_REQUIRE([AC_PROG_CC])
WARNINGS_CFLAGS=
smma_save_CFLAGS=$CFLAGS
for smma_flag in -Wall -Wextra -Wformat=2 -Wshadow -Wpointer-arith -Wwrite-strings \
    -Wstrict-prototypes -Wmissing-prototypes -Wmissing-declarations -Wundef \
    -Wvla -Wnull-dereference -Wdouble-promotion -Wimplicit-fallthrough; do
  AC_MSG_CHECKING([whether $CC accepts $smma_flag])
  CFLAGS="$smma_save_CFLAGS -Werror $smma_flag"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[int f(int x);
int f(int x) { return x + 1; }]], [[return f(0) - 1;]])],
    [AC_MSG_RESULT([yes])
     WARNINGS_CFLAGS="$WARNINGS_CFLAGS $smma_flag"],
    [AC_MSG_RESULT([no])])
done
CFLAGS=$smma_save_CFLAGS
AC_SUBST([WARNINGS_CFLAGS])
])

dnl SMMA_PROG_CC_FP_STRICT
dnl   Adds -ffp-contract=off to FP_CFLAGS when the compiler accepts it, so
dnl   that a * b + c is never fused: the reference's results must not depend
dnl   on the compiler or the target.  Also adds -fexcess-precision=standard
dnl   when accepted (x87 targets).
dnl
dnl   Sets and substitutes: FP_CFLAGS.
AC_DEFUN([SMMA_PROG_CC_FP_STRICT],
[AC_REQUIRE([AC_PROG_CC])
FP_CFLAGS=
smma_save_CFLAGS=$CFLAGS
for smma_flag in -ffp-contract=off -fexcess-precision=standard; do
  AC_MSG_CHECKING([whether $CC accepts $smma_flag])
  CFLAGS="$smma_save_CFLAGS -Werror $smma_flag"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[]], [[return 0;]])],
    [AC_MSG_RESULT([yes])
     FP_CFLAGS="$FP_CFLAGS $smma_flag"],
    [AC_MSG_RESULT([no])])
done
CFLAGS=$smma_save_CFLAGS
AC_SUBST([FP_CFLAGS])
])
