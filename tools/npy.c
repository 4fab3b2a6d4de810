/*
 * tools/npy.c - NumPy .npy files: written (format 1.0, unsigned integers)
 * by export and gemm --out, and read (format 1.0, 2.0, 3.0) of numbers:
 * what `softmma export --npy` writes, and what np.save writes for a
 * subject's results, so that ver and gemm --check take either.
 *
 * Only little-endian (or one-byte) unsigned integers, signed integers and
 * floats are read, in C or Fortran order, with at most two dimensions; the
 * values are kept as bit patterns in C order.  Everything else is refused
 * with a message naming the file.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/vectors.h>

#include "cli.h"

/* Larger files are refused (a D of 8192 x 8192 fp32 is 256 MiB). */
#define NPY_MAX ((size_t) 1 << 31)

/* The value of 'key' in the header dict: a pointer just past "'key':" and
 * its spaces, or NULL. */
static const char *
dict_value(const char *dict, const char *key)
{
    char pat[32];
    const char *p;

    snprintf(pat, sizeof(pat), "'%s':", key);
    p = strstr(dict, pat);
    if (p == NULL)
        return NULL;
    p += strlen(pat);
    return p + strspn(p, " ");
}

/* Parses the header dict into x; false when it is not one this reader
 * takes. */
static bool
parse_dict(const char *dict, cli_npy *x, bool *fortran)
{
    const char *p;
    char *end;
    unsigned long v;

    p = dict_value(dict, "descr");
    if (p == NULL || (p[0] != '\'' && p[0] != '"'))
        return false;
    if (p[1] != '<' && p[1] != '|')
        return false;
    x->kind = p[2];
    if (x->kind != 'u' && x->kind != 'i' && x->kind != 'f')
        return false;
    errno = 0;
    v = strtoul(p + 3, &end, 10);
    if (errno != 0 || *end != p[0] || (v != 1 && v != 2 && v != 4 && v != 8) ||
        (p[1] == '|' && v != 1))
        return false;
    x->bytes = (unsigned) v;
    p = dict_value(dict, "fortran_order");
    if (p == NULL)
        return false;
    if (strncmp(p, "True", 4) == 0)
        *fortran = true;
    else if (strncmp(p, "False", 5) == 0)
        *fortran = false;
    else
        return false;
    p = dict_value(dict, "shape");
    if (p == NULL || *p != '(')
        return false;
    p++;
    x->ndim = 0;
    for (;;) {
        p += strspn(p, " ");
        if (*p == ')')
            break;
        if (x->ndim == 2)
            return false;
        errno = 0;
        v = strtoul(p, &end, 10);
        if (errno != 0 || end == p)
            return false;
        x->shape[x->ndim++] = (size_t) v;
        p = end + strspn(end, " ");
        if (*p == ',')
            p++;
        else if (*p != ')')
            return false;
    }
    return true;
}

void
cli_npy_type(const cli_npy *x, char *buf, size_t n)
{
    snprintf(buf, n, "%c%c%u", x->bytes == 1 ? '|' : '<', x->kind, x->bytes);
}

void
cli_npy_shape(const cli_npy *x, char *buf, size_t n)
{
    if (x->ndim == 0)
        snprintf(buf, n, "()");
    else if (x->ndim == 1)
        snprintf(buf, n, "(%zu,)", x->shape[0]);
    else
        snprintf(buf, n, "(%zu, %zu)", x->shape[0], x->shape[1]);
}

int
cli_npy_read(const char *path, cli_npy *x)
{
    FILE *f;
    unsigned char head[12];
    size_t hl, count, i, r, c, got;
    unsigned k;
    char *dict = NULL;
    unsigned char *raw = NULL;
    bool fortran = false;
    int rc = CLI_OK;

    memset(x, 0, sizeof(*x));
    f = fopen(path, "rb");
    if (f == NULL)
        return cli_error("%s: cannot open: %s", path, strerror(errno));
    if (fread(head, 1, 10, f) != 10 || memcmp(head, "\x93NUMPY", 6) != 0 || head[6] < 1 ||
        head[6] > 3) {
        rc = cli_error("%s: not a NumPy .npy file (format 1.0, 2.0 or 3.0)", path);
        goto done;
    }
    hl = head[8] | (size_t) head[9] << 8;
    if (head[6] > 1) {
        if (fread(head + 10, 1, 2, f) != 2) {
            rc = cli_error("%s: truncated .npy header", path);
            goto done;
        }
        hl |= (size_t) head[10] << 16 | (size_t) head[11] << 24;
    }
    if (hl > 65536 || (dict = malloc(hl + 1)) == NULL || fread(dict, 1, hl, f) != hl) {
        rc = cli_error("%s: truncated or oversized .npy header", path);
        goto done;
    }
    dict[hl] = '\0';
    if (!parse_dict(dict, x, &fortran)) {
        rc = cli_error("%s: .npy header '%.*s' is not one softmma reads (little-endian "
                       "integers or floats, at most 2 dimensions)", path,
                       (int) strcspn(dict, "\n"), dict);
        goto done;
    }
    count = 1;
    for (i = 0; i < (size_t) x->ndim; i++) {
        if (x->shape[i] != 0 && count > NPY_MAX / x->shape[i]) {
            rc = cli_error("%s: too large", path);
            goto done;
        }
        count *= x->shape[i];
    }
    if (count > NPY_MAX / x->bytes) {
        rc = cli_error("%s: too large", path);
        goto done;
    }
    raw = malloc(count * x->bytes + 1);
    x->v = malloc((count ? count : 1) * sizeof(uint64_t));
    if (raw == NULL || x->v == NULL) {
        rc = cli_error("%s: out of memory", path);
        goto done;
    }
    got = fread(raw, 1, count * x->bytes + 1, f);
    if (got != count * x->bytes) {
        rc = cli_error("%s: %zu bytes of data, but shape and dtype say %zu", path, got,
                       count * x->bytes);
        goto done;
    }
    x->count = count;
    /* C order out: element (r, c) of a Fortran-order file is at c*rows + r. */
    for (i = 0; i < count; i++) {
        size_t src = i;

        if (fortran && x->ndim == 2) {
            r = i / x->shape[1];
            c = i % x->shape[1];
            src = c * x->shape[0] + r;
        }
        x->v[i] = 0;
        for (k = 0; k < x->bytes; k++)
            x->v[i] |= (uint64_t) raw[src * x->bytes + k] << (8 * k);
    }
done:
    if (rc != CLI_OK)
        cli_npy_free(x);
    free(dict);
    free(raw);
    fclose(f);
    return rc;
}

int
cli_npy_expect(const cli_npy *x, const char *path, unsigned bytes, smma_format fmt, size_t d0,
               size_t d1, const char *what)
{
    char t[16], sh[64], want[64];
    bool float_ok = (fmt == SMMA_FP32 && bytes == 4) || (fmt == SMMA_FP16 && bytes == 2);
    bool type_ok = x->bytes == bytes && (x->kind == 'u' || (x->kind == 'f' && float_ok));
    bool shape_ok = d1 == 0 ? x->ndim == 1 && x->shape[0] == d0
                            : x->ndim == 2 && x->shape[0] == d0 && x->shape[1] == d1;

    cli_npy_type(x, t, sizeof(t));
    if (!type_ok)
        return cli_error("%s: dtype %s, expected %cu%u (the bits of %s)%s", path, t,
                         bytes == 1 ? '|' : '<', bytes, what,
                         !float_ok ? "" : bytes == 4 ? " or <f4" : " or <f2");
    if (!shape_ok) {
        cli_npy_shape(x, sh, sizeof(sh));
        if (d1 == 0)
            snprintf(want, sizeof(want), "(%zu,)", d0);
        else
            snprintf(want, sizeof(want), "(%zu, %zu)", d0, d1);
        return cli_error("%s: shape %s, expected %s (%s)%s", path, sh, want, what,
                         d1 != 0 && x->ndim == 2 && x->shape[0] == d1 && x->shape[1] == d0
                             ? ": transposed?" : "");
    }
    return CLI_OK;
}

bool
cli_is_npy_name(const char *path)
{
    size_t n = strlen(path);

    return n >= 4 && strcmp(path + n - 4, ".npy") == 0;
}

void
cli_npy_free(cli_npy *x)
{
    free(x->v);
    x->v = NULL;
    x->count = 0;
}

int
cli_npy_write(const char *path, unsigned bytes, size_t d0, size_t d1, const unsigned char *data,
          size_t len)
{
    char dict[160];
    unsigned char *buf;
    size_t dl, hl, total;
    smma_error err;
    int rc = CLI_OK;

    if (d1 == 0)
        snprintf(dict, sizeof(dict), "{'descr': '%cu%u', 'fortran_order': False, "
                 "'shape': (%zu,), }", bytes == 1 ? '|' : '<', bytes, d0);
    else
        snprintf(dict, sizeof(dict), "{'descr': '%cu%u', 'fortran_order': False, "
                 "'shape': (%zu, %zu), }", bytes == 1 ? '|' : '<', bytes, d0, d1);
    dl = strlen(dict);
    /* Magic, version, header length, the dict padded with spaces and a
     * newline so that the data starts at a multiple of 64. */
    hl = (10 + dl + 1 + 63) / 64 * 64 - 10;
    total = 10 + hl + len;
    buf = malloc(total);
    if (buf == NULL)
        return cli_error("out of memory");
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char) (hl & 0xff);
    buf[9] = (unsigned char) (hl >> 8);
    memcpy(buf + 10, dict, dl);
    memset(buf + 10 + dl, ' ', hl - dl - 1);
    buf[10 + hl - 1] = '\n';
    if (len > 0)
        memcpy(buf + 10 + hl, data, len);
    if (smma_vec_save_bytes(buf, total, path, &err) != SMMA_OK)
        rc = cli_error("%s", err.msg);
    free(buf);
    return rc;
}
