dnl smma_cuda.m4 -- find the CUDA toolkit and prove that nvcc works.
dnl
dnl SMMA_CHECK_CUDA
dnl   Options:
dnl     --with-cuda[=DIR]    use the toolkit in DIR (default: nvcc on PATH,
dnl                          then /usr/local/cuda); --without-cuda disables
dnl                          all CUDA code, and GPU tests skip with that reason.
dnl     --with-cuda-arch=L   a comma-separated list of targets among sm_80,
dnl                          sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_100f,
dnl                          sm_103a, sm_120a (default sm_80,sm_90a,sm_100a).
dnl                          sm_80 is built as SASS plus compute_80 PTX, so that
dnl                          the driver can run it on later GPUs.
dnl   Precious variables: NVCC, NVCCFLAGS.
dnl
dnl   The check is real: for each target nvcc compiles a small kernel.  A
dnl   target nvcc rejects is reported and CUDA is disabled, with the reason.
dnl
dnl   Sets and substitutes: CUDA_HOME, NVCC, NVCC_GENCODE, CUDA_CPPFLAGS,
dnl   CUDA_LIBS, CUBLAS_LIBS (cuBLASLt, for make bench), CUDA_ARCHS,
dnl   smma_cuda_reason; AM_CONDITIONAL HAVE_CUDA, HAVE_CUBLASLT and
dnl   HAVE_CUDA_FP_HEADERS; defines HAVE_CUDA and HAVE_CUDA_FP_HEADERS.
dnl   HAVE_CUDA_FP_HEADERS says that cuda_fp8.h, cuda_fp6.h and cuda_fp4.h
dnl   compile with the C compiler (their host conversions are a test oracle).
AC_DEFUN([SMMA_CHECK_CUDA],
[AC_ARG_VAR([NVCC], [the CUDA compiler driver])
AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
    [build the GPU kernels and probes with the CUDA toolkit in DIR @<:@default: auto@:>@])],
  [smma_with_cuda=$withval], [smma_with_cuda=auto])
AC_ARG_WITH([cuda-arch],
  [AS_HELP_STRING([--with-cuda-arch=LIST],
    [CUDA targets, comma-separated @<:@default: sm_80,sm_90a,sm_100a@:>@])],
  [smma_cuda_arch=$withval], [smma_cuda_arch="sm_80,sm_90a,sm_100a"])

have_cuda=no
have_cuda_fp_headers=no
smma_cuda_reason=
CUDA_HOME=
NVCC_GENCODE=
CUDA_CPPFLAGS=
CUDA_LIBS=
AS_CASE([$smma_with_cuda],
  [no], [smma_cuda_reason="disabled by --without-cuda"],
  [yes|auto], [
    AS_IF([test -z "$NVCC"], [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])])
    AS_IF([test -z "$NVCC"],
      [smma_cuda_reason="nvcc not found (PATH, /usr/local/cuda/bin)"],
      [CUDA_HOME=])],
  [CUDA_HOME=$smma_with_cuda
   AS_IF([test -z "$NVCC"], [NVCC=$CUDA_HOME/bin/nvcc])
   AS_IF([test ! -x "$NVCC"], [smma_cuda_reason="no nvcc at $NVCC"; NVCC=])])

dnl Turn the target list into -gencode flags.
AS_IF([test -n "$NVCC"], [
  smma_archs=`echo "$smma_cuda_arch" | tr ',' ' '`
  CUDA_ARCHS=
  for smma_a in $smma_archs; do
    smma_n=`echo "$smma_a" | sed 's/^sm_//'`
    AS_IF([test "$smma_n" = 80],
      [NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_80,code=@<:@sm_80,compute_80@:>@"],
      [echo "$smma_n" | grep -E '^@<:@0-9@:>@{2,3}@<:@af@:>@?$' >/dev/null 2>&1],
      [NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$smma_n,code=sm_$smma_n"],
      [smma_cuda_reason="unknown CUDA target '$smma_a' in --with-cuda-arch"])
    CUDA_ARCHS="$CUDA_ARCHS sm_$smma_n"
  done])

AS_IF([test -n "$NVCC" && test -z "$smma_cuda_reason"], [
  cat > conftest.cu <<_SMMA_EOF
__global__ void smma_conftest(float *x) { x@<:@threadIdx.x@:>@ += 1.0f; }
int main(void) { return 0; }
_SMMA_EOF
  dnl nvcc may be a wrapper script or a symbolic link outside the toolkit
  dnl (/usr/local/bin/nvcc, /usr/bin/nvcc): ask nvcc itself where its
  dnl toolkit and its libraries are.
  smma_cuda_dry=`$NVCC -dryrun conftest.cu -o conftest 2>&1`
  AS_IF([test -z "$CUDA_HOME"], [
    smma_cuda_top=`echo "$smma_cuda_dry" | sed -n 's/^#. TOP=//p' | sed 1q`
    AS_IF([test -n "$smma_cuda_top" && test -d "$smma_cuda_top"],
      [CUDA_HOME=`cd "$smma_cuda_top" && pwd -P`],
      [smma_cuda_top=`dirname "$NVCC"`
       CUDA_HOME=`dirname "$smma_cuda_top"`])])
  smma_cuda_libdirs=`echo "$smma_cuda_dry" | sed -n 's/^#. LIBRARIES=//p' \
    | tr ' ' '\n' | sed -n 's/^"*-L\(@<:@^"@:>@*\)"*$/\1/p' | grep -v '/stubs$'`
  AC_MSG_CHECKING([for the CUDA toolkit])
  AC_MSG_RESULT([$CUDA_HOME])
  AC_MSG_CHECKING([whether $NVCC compiles for$CUDA_ARCHS])
  AS_IF([$NVCC $NVCCFLAGS $NVCC_GENCODE -c conftest.cu -o conftest.$OBJEXT >conftest.err 2>&1],
    [AC_MSG_RESULT([yes])
     have_cuda=yes],
    [AC_MSG_RESULT([no])
     smma_cuda_reason="$NVCC failed to compile a test kernel for$CUDA_ARCHS (see config.log)"
     cat conftest.err >&AS_MESSAGE_LOG_FD])
  rm -f conftest.cu conftest.$OBJEXT conftest.err])

dnl The C compiler links the programs, against the static runtime (no
dnl -lcuda: linking works without a driver).  Prove that it links.
AS_IF([test "$have_cuda" = yes], [
  AC_MSG_CHECKING([for libcudart_static.a])
  smma_cuda_libdir=
  for smma_d in $smma_cuda_libdirs "$CUDA_HOME/lib64" "$CUDA_HOME/lib" \
                "$CUDA_HOME"/targets/*/lib; do
    AS_IF([test -f "$smma_d/libcudart_static.a"],
      [smma_cuda_libdir=$smma_d; break])
  done
  AS_IF([test -n "$smma_cuda_libdir"],
    [AC_MSG_RESULT([$smma_cuda_libdir])
     CUDA_LIBS="-L$smma_cuda_libdir -lcudart_static -lstdc++ -lpthread -ldl -lrt"
     AC_MSG_CHECKING([whether programs link with $CUDA_LIBS])
     smma_save_LIBS=$LIBS
     LIBS="$CUDA_LIBS $LIBS"
     AC_LINK_IFELSE([AC_LANG_PROGRAM([[int cudaGetDeviceCount(int *);]],
                                     [[int n; return cudaGetDeviceCount(&n);]])],
       [AC_MSG_RESULT([yes])],
       [AC_MSG_RESULT([no])
        have_cuda=no
        smma_cuda_reason="cannot link with $CUDA_LIBS (see config.log)"])
     LIBS=$smma_save_LIBS],
    [AC_MSG_RESULT([no])
     have_cuda=no
     smma_cuda_reason="no libcudart_static.a under $CUDA_HOME"])
  AS_IF([test "$have_cuda" = yes],
    [AC_DEFINE([HAVE_CUDA], [1], [Define if the CUDA kernels and probes are built.])],
    [CUDA_LIBS=])])

dnl cuBLASLt, for the benchmark beside cuBLAS (make bench) only.
have_cublaslt=no
CUBLAS_LIBS=
AS_IF([test "$have_cuda" = yes], [
  AC_MSG_CHECKING([for cuBLASLt (make bench)])
  AS_IF([test -f "$smma_cuda_libdir/libcublasLt.so"],
    [CUBLAS_LIBS="-L$smma_cuda_libdir -Wl,-rpath,$smma_cuda_libdir -lcublasLt"
     smma_save_LIBS=$LIBS
     LIBS="$CUBLAS_LIBS $CUDA_LIBS $LIBS"
     AC_LINK_IFELSE([AC_LANG_PROGRAM([[int cublasLtCreate(void **);]],
                                     [[void *h; return cublasLtCreate(&h);]])],
       [have_cublaslt=yes], [CUBLAS_LIBS=])
     LIBS=$smma_save_LIBS])
  AC_MSG_RESULT([$have_cublaslt])])

dnl The host conversion functions of the toolkit's headers, from plain C.
AS_IF([test "$smma_with_cuda" != no && test -n "$CUDA_HOME"], [
  AC_MSG_CHECKING([whether cuda_fp8.h, cuda_fp6.h and cuda_fp4.h work from C])
  smma_save_CPPFLAGS=$CPPFLAGS
  CPPFLAGS="$CPPFLAGS -I$CUDA_HOME/include"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>]],
    [[return (int) __nv_cvt_float_to_fp8(1.0f, __NV_SATFINITE, __NV_E4M3)
         + (int) __nv_cvt_float_to_fp4(1.0f, __NV_E2M1, cudaRoundNearest)
         + (int) __nv_cvt_float_to_e8m0(1.0f, __NV_SATFINITE, cudaRoundPosInf);]])],
    [AC_MSG_RESULT([yes])
     have_cuda_fp_headers=yes
     CUDA_CPPFLAGS="-isystem $CUDA_HOME/include"
     AC_DEFINE([HAVE_CUDA_FP_HEADERS], [1],
       [Define if the CUDA fp8/fp6/fp4 headers compile with the C compiler.])],
    [AC_MSG_RESULT([no])])
  CPPFLAGS=$smma_save_CPPFLAGS])

AC_SUBST([CUDA_HOME])
AC_SUBST([NVCC_GENCODE])
AC_SUBST([CUDA_CPPFLAGS])
AC_SUBST([CUDA_LIBS])
AC_SUBST([CUDA_ARCHS])
AC_SUBST([CUBLAS_LIBS])
AM_CONDITIONAL([HAVE_CUDA], [test "$have_cuda" = yes])
AM_CONDITIONAL([HAVE_CUBLASLT], [test "$have_cublaslt" = yes])
AM_CONDITIONAL([HAVE_CUDA_FP_HEADERS], [test "$have_cuda_fp_headers" = yes])
])
