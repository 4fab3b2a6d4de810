/*
 * vectors.c - the golden vector file format (softmma/vectors.h): header
 * checks, the streaming reader, the writer and SHA-256.
 *
 * The reader never trusts the input: every line is read into a buffer of
 * fixed size, every byte is checked to be text, every size is compared with
 * its limit before anything is allocated for it, and the first error is
 * kept, so that a reader that failed keeps failing the same way.  It uses
 * only libc and smma_error_set.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <softmma/vectors.h>

/* ------------------------------------------------------------------ types */

static const smma_vec_type_info types[SMMA_VT_COUNT] = {
    { SMMA_VT_E2M1, "e2m1", 4, 1, 1 },    { SMMA_VT_E2M3, "e2m3", 6, 2, 1 },
    { SMMA_VT_E3M2, "e3m2", 6, 2, 1 },    { SMMA_VT_E4M3, "e4m3", 8, 2, 1 },
    { SMMA_VT_E5M2, "e5m2", 8, 2, 1 },    { SMMA_VT_E8M0, "e8m0", 8, 2, 1 },
    { SMMA_VT_UE4M3, "ue4m3", 8, 2, 1 },  { SMMA_VT_BF16, "bf16", 16, 4, 2 },
    { SMMA_VT_FP16, "fp16", 16, 4, 2 },   { SMMA_VT_FP32, "fp32", 32, 8, 4 },
    { SMMA_VT_FP64, "fp64", 64, 16, 8 },  { SMMA_VT_U8, "u8", 8, 2, 1 },
    { SMMA_VT_U16, "u16", 16, 4, 2 },     { SMMA_VT_U32, "u32", 32, 8, 4 },
    { SMMA_VT_U64, "u64", 64, 16, 8 },
};

#define TYPE_NAMES "e2m1 e2m3 e3m2 e4m3 e5m2 e8m0 ue4m3 bf16 fp16 fp32 fp64 u8 u16 u32 u64"

static const char *const families[] = { "decode", "encode", "quant", "scale-layout",
                                        "fragment", "mma", "gemm" };

#define FAMILY_NAMES "decode encode quant scale-layout fragment mma gemm"

const smma_vec_type_info *
smma_vec_type_get(smma_vec_type t)
{
    if ((unsigned) t >= SMMA_VT_COUNT)
        return NULL;
    return &types[t];
}

int
smma_vec_type_from_name(const char *name, smma_vec_type *out, smma_error *err)
{
    unsigned i;

    for (i = 0; name != NULL && i < SMMA_VT_COUNT; i++)
        if (strcmp(name, types[i].name) == 0) {
            *out = (smma_vec_type) i;
            return SMMA_OK;
        }
    return smma_error_set(err, SMMA_EINVAL, "unknown type '%.40s' (known: %s)",
                          name != NULL ? name : "", TYPE_NAMES);
}

smma_format
smma_vec_type_format(smma_vec_type t)
{
    return (unsigned) t < SMMA_FORMAT_COUNT ? (smma_format) t : SMMA_FORMAT_COUNT;
}

static uint64_t
type_max(smma_vec_type t)
{
    unsigned bits = types[t].bits;

    return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

void
smma_vec_format_token(smma_vec_type t, uint64_t v, char *buf)
{
    static const char hex[] = "0123456789abcdef";
    unsigned i, n = (unsigned) t < SMMA_VT_COUNT ? types[t].digits : 16;

    for (i = 0; i < n; i++)
        buf[i] = hex[(v >> (4 * (n - 1 - i))) & 0xf];
    buf[n] = '\0';
}

/* ------------------------------------------------------------------ header */

static bool
is_ident(const char *s)
{
    size_t i;

    if (s == NULL || s[0] == '\0' || (s[0] >= '0' && s[0] <= '9'))
        return false;
    for (i = 0; s[i] != '\0'; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return false;
    return i < SMMA_VEC_NAME_MAX;
}

/* A name of a suite part, profile or model: lowercase letters, digits and
 * "_+-" (and '.' where dots is set). */
static bool
is_name(const char *s, bool dots)
{
    size_t i;

    if (s == NULL || s[0] == '\0')
        return false;
    for (i = 0; s[i] != '\0'; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
              s[i] == '+' || s[i] == '-' || (dots && s[i] == '.')))
            return false;
    return i < SMMA_VEC_TEXT_MAX;
}

int
smma_vec_suite_check(const char *suite, smma_error *err)
{
    const char *dot;
    size_t i, n;

    if (suite == NULL || suite[0] == '\0')
        return smma_error_set(err, SMMA_EINVAL, "no suite name");
    if (!is_name(suite, true))
        return smma_error_set(err, SMMA_EINVAL,
                              "malformed suite name '%.60s' (lowercase letters, digits, "
                              "'.', '_', '+', '-'; under %u bytes)",
                              suite, SMMA_VEC_TEXT_MAX);
    dot = strchr(suite, '.');
    n = dot != NULL ? (size_t) (dot - suite) : strlen(suite);
    for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
        if (strlen(families[i]) == n && strncmp(suite, families[i], n) == 0)
            break;
    if (i == sizeof(families) / sizeof(families[0]))
        return smma_error_set(err, SMMA_EINVAL, "unknown suite '%.60s' (families: %s)", suite,
                              FAMILY_NAMES);
    if (dot == NULL || dot[1] == '\0' || dot[1] == '.' || strstr(suite, "..") != NULL ||
        suite[strlen(suite) - 1] == '.')
        return smma_error_set(err, SMMA_EINVAL,
                              "malformed suite name '%.60s' (FAMILY.PART[.PART...])", suite);
    return SMMA_OK;
}

void
smma_vec_header_init(smma_vec_header *h)
{
    memset(h, 0, sizeof(*h));
    h->version = SMMA_VEC_VERSION;
    strcpy(h->generator, "-");
    strcpy(h->profile, "-");
    strcpy(h->model, "-");
    h->level = 1;
}

int
smma_vec_field_index(const smma_vec_header *h, const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < h->nfields; i++)
        if (strcmp(h->fields[i].name, name) == 0)
            return (int) i;
    return -1;
}

int
smma_vec_header_add(smma_vec_header *h, const char *name, smma_vec_type type, bool out,
                    bool block, unsigned count, smma_error *err)
{
    smma_vec_field *f;

    if (!is_ident(name))
        return smma_error_set(err, SMMA_EINVAL,
                              "malformed field name '%.40s' (letters, digits and '_', not "
                              "starting with a digit, under %u bytes)",
                              name != NULL ? name : "", SMMA_VEC_NAME_MAX);
    if (smma_vec_field_index(h, name) >= 0)
        return smma_error_set(err, SMMA_EINVAL, "field '%s' is declared twice", name);
    if (smma_vec_type_get(type) == NULL)
        return smma_error_set(err, SMMA_EINVAL, "field '%s': unknown type %d", name,
                              (int) type);
    if (!block && (count == 0 || count > SMMA_VEC_MAX_TOKENS))
        return smma_error_set(err, SMMA_EINVAL, "field '%s': count %u is not in 1..%u", name,
                              count, SMMA_VEC_MAX_TOKENS);
    if (h->nfields >= SMMA_VEC_MAX_FIELDS)
        return smma_error_set(err, SMMA_EINVAL, "field '%s': more than %u fields", name,
                              SMMA_VEC_MAX_FIELDS);
    f = &h->fields[h->nfields++];
    memset(f, 0, sizeof(*f));
    strcpy(f->name, name);
    f->type = type;
    f->out = out;
    f->block = block;
    f->count = block ? 0 : count;
    return SMMA_OK;
}

/* The group of a field in token order: scalar in, scalar out, block. */
static int
field_group(const smma_vec_field *f)
{
    return f->block ? 2 : f->out ? 1 : 0;
}

int
smma_vec_header_check(smma_vec_header *h, smma_error *err)
{
    smma_vec_field sorted[SMMA_VEC_MAX_FIELDS];
    size_t i, j, n = 0, tokens = 0, blocks = 0;
    int g, rc;
    bool any_out = false;

    if (h->version != SMMA_VEC_VERSION)
        return smma_error_set(err, SMMA_EINVAL, "format version %u (this library writes %d)",
                              h->version, SMMA_VEC_VERSION);
    if ((rc = smma_vec_suite_check(h->suite, err)) != SMMA_OK)
        return rc;
    if (strcmp(h->profile, "-") != 0 && !is_name(h->profile, true))
        return smma_error_set(err, SMMA_EINVAL, "malformed profile name '%.60s'", h->profile);
    if (strcmp(h->model, "-") != 0 && !is_name(h->model, true))
        return smma_error_set(err, SMMA_EINVAL, "malformed model name '%.60s'", h->model);
    for (i = 0; h->generator[i] != '\0'; i++)
        if (h->generator[i] < 0x20 || h->generator[i] > 0x7e)
            return smma_error_set(err, SMMA_EINVAL, "the generator command is not one line "
                                                    "of printable ASCII");
    if (i == 0 || i >= SMMA_VEC_GEN_MAX || h->level > 9)
        return smma_error_set(err, SMMA_EINVAL, "empty generator command or level above 9");
    if (h->nfields > SMMA_VEC_MAX_FIELDS)
        return smma_error_set(err, SMMA_EINVAL, "more than %u fields", SMMA_VEC_MAX_FIELDS);
    for (g = 0; g < 3; g++)
        for (i = 0; i < h->nfields; i++) {
            smma_vec_field *f = &h->fields[i];

            if (field_group(f) != g)
                continue;
            if (!is_ident(f->name) || smma_vec_type_get(f->type) == NULL)
                return smma_error_set(err, SMMA_EINVAL, "field %zu: bad name or type", i);
            for (j = 0; j < n; j++)
                if (strcmp(sorted[j].name, f->name) == 0)
                    return smma_error_set(err, SMMA_EINVAL, "field '%s' is declared twice",
                                          f->name);
            sorted[n] = *f;
            if (f->block) {
                sorted[n].count = 0;
                sorted[n].offset = 0;
                blocks++;
            } else {
                if (f->count == 0 || f->count > SMMA_VEC_MAX_TOKENS - tokens)
                    return smma_error_set(err, SMMA_EINVAL,
                                          "field '%s': count %u makes more than %u scalar "
                                          "tokens per case", f->name, f->count,
                                          SMMA_VEC_MAX_TOKENS);
                sorted[n].offset = tokens;
                tokens += f->count;
            }
            any_out |= f->out;
            n++;
        }
    if (!any_out)
        return smma_error_set(err, SMMA_EINVAL, "no output field ('out' or 'block out')");
    memcpy(h->fields, sorted, n * sizeof(sorted[0]));
    h->nscalars = tokens;
    h->nblocks = blocks;
    return SMMA_OK;
}

/* ------------------------------------------------------------------ reader */

struct smma_vec_reader {
    /* The source: a stream or a memory buffer. */
    FILE *f;
    bool own;
    const unsigned char *mem;
    size_t memlen, mempos;
    unsigned char buf[65536];
    size_t bpos, blen;
    bool eof;

    char name[128];
    char line[SMMA_VEC_MAX_LINE + 1];
    size_t len;             /* bytes in line */
    size_t lineno;          /* the line in line */
    int status;             /* the first error, kept */
    char msg[sizeof(((smma_error *) 0)->msg)];
    bool done;              /* the "end" line was read */
    uint64_t count;         /* cases read */

    smma_vec_header h;
    smma_vec_case c;
    size_t cap[SMMA_VEC_MAX_FIELDS]; /* allocated values of each block */
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
fail(smma_vec_reader *r, smma_error *err, const char *fmt, ...)
{
    char text[sizeof(r->msg)];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    snprintf(r->msg, sizeof(r->msg), "%.100s:%zu: %.120s", r->name, r->lineno, text);
    r->status = SMMA_EPARSE;
    return smma_error_set(err, r->status, "%s", r->msg);
}

/* The next byte of the source, or -1 at its end (or -2 on a read error). */
static int
next_byte(smma_vec_reader *r)
{
    if (r->bpos < r->blen)
        return r->buf[r->bpos++];
    if (r->eof)
        return -1;
    if (r->f != NULL) {
        r->blen = fread(r->buf, 1, sizeof(r->buf), r->f);
        r->bpos = 0;
        if (r->blen == 0) {
            r->eof = true;
            return ferror(r->f) ? -2 : -1;
        }
    } else {
        size_t n = r->memlen - r->mempos;

        if (n == 0) {
            r->eof = true;
            return -1;
        }
        if (n > sizeof(r->buf))
            n = sizeof(r->buf);
        memcpy(r->buf, r->mem + r->mempos, n);
        r->mempos += n;
        r->blen = n;
        r->bpos = 0;
    }
    return r->buf[r->bpos++];
}

/* Reads one line into r->line (NUL-terminated, without its newline).
 * Returns 1 for a line, 0 at the end of the input, or an error status. */
static int
read_line(smma_vec_reader *r, smma_error *err)
{
    size_t n = 0;

    r->lineno++;
    for (;;) {
        int ch = next_byte(r);

        if (ch == -2) {
            snprintf(r->msg, sizeof(r->msg), "%s:%zu: read error", r->name, r->lineno);
            r->status = SMMA_EIO;
            return smma_error_set(err, SMMA_EIO, "%s", r->msg);
        }
        if (ch == -1) {
            if (n == 0) {
                r->lineno--;
                return 0;
            }
            return fail(r, err, "the last line has no newline (truncated file?)");
        }
        if (ch == '\n')
            break;
        if (ch == '\r')
            return fail(r, err, "carriage return at column %zu (lines must end in LF only)",
                        n + 1);
        if (ch == 0)
            return fail(r, err, "NUL byte at column %zu (binary data?)", n + 1);
        if ((ch < 0x20 && ch != '\t') || ch > 0x7e)
            return fail(r, err, "byte 0x%02x at column %zu is not text (binary data?)",
                        (unsigned) ch, n + 1);
        if (n == SMMA_VEC_MAX_LINE)
            return fail(r, err, "line longer than %u bytes", SMMA_VEC_MAX_LINE);
        r->line[n++] = (char) ch;
    }
    r->line[n] = '\0';
    r->len = n;
    return 1;
}

static bool
skippable(const char *line)
{
    const char *p = line;

    while (*p == ' ' || *p == '\t')
        p++;
    return *p == '\0' || *p == '#';
}

/* Reads the next line that is not blank or a comment; 1, 0 at the end, or
 * an error status. */
static int
read_content(smma_vec_reader *r, smma_error *err)
{
    int rc;

    while ((rc = read_line(r, err)) == 1)
        if (!skippable(r->line))
            return 1;
    return rc;
}

/* Returns the next token of the line at *p, ending it with a NUL in place,
 * or NULL at the end of the line. */
static char *
next_token(char **p)
{
    char *s = *p, *t;

    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0') {
        *p = s;
        return NULL;
    }
    t = s;
    while (*s != '\0' && *s != ' ' && *s != '\t')
        s++;
    if (*s != '\0')
        *s++ = '\0';
    *p = s;
    return t;
}

/* Splits the line in place into at most max tokens; returns their number,
 * or max + 1 when there are more. */
static size_t
split(char *line, char **tok, size_t max)
{
    size_t n = 0;
    char *p = line, *t;

    while ((t = next_token(&p)) != NULL) {
        if (n == max)
            return max + 1;
        tok[n++] = t;
    }
    return n;
}

/* A decimal number without sign or leading zeros (but "0"), at most max. */
static bool
parse_dec(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    size_t i;

    if (s[0] == '\0' || (s[0] == '0' && s[1] != '\0'))
        return false;
    for (i = 0; s[i] != '\0'; i++) {
        unsigned d;

        if (s[i] < '0' || s[i] > '9')
            return false;
        d = (unsigned) (s[i] - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static int
hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Parses the token of one value of field f. */
static int
parse_token(smma_vec_reader *r, const smma_vec_field *f, const char *tok, uint64_t *out,
            smma_error *err)
{
    const smma_vec_type_info *t = &types[f->type];
    uint64_t v = 0;
    size_t i, n = strlen(tok);

    for (i = 0; i < n; i++) {
        int d = hex_digit(tok[i]);

        if (d < 0)
            return fail(r, err, "bad hex token '%.20s' in field '%s' (%s)", tok, f->name,
                        t->name);
        if (i < 16)
            v = (v << 4) | (unsigned) d;
    }
    if (n != t->digits)
        return fail(r, err, "token '%.20s' of field '%s' has %zu hex digits; %s takes %u", tok,
                    f->name, n, t->name, t->digits);
    if (v > type_max(f->type))
        return fail(r, err, "value 0x%llx of field '%s' does not fit %s (%u bits)",
                    (unsigned long long) v, f->name, t->name, t->bits);
    *out = v;
    return SMMA_OK;
}

/* Parses one "name:type" or "name:type[count]" field spec. */
static int
parse_field(smma_vec_reader *r, char *spec, bool out, bool block, smma_error *err)
{
    char *colon = strchr(spec, ':'), *br;
    smma_vec_type type;
    uint64_t count = 1;
    smma_error e2;

    if (colon == NULL)
        return fail(r, err, "field '%.40s' has no type (NAME:TYPE)", spec);
    *colon = '\0';
    br = strchr(colon + 1, '[');
    if (br != NULL) {
        size_t n = strlen(br);

        if (block)
            return fail(r, err, "block '%.40s' cannot have a count", spec);
        if (n < 3 || br[n - 1] != ']')
            return fail(r, err, "field '%.40s': malformed count (NAME:TYPE[N])", spec);
        br[n - 1] = '\0';
        *br = '\0';
        if (!parse_dec(br + 1, SMMA_VEC_MAX_TOKENS, &count) || count == 0)
            return fail(r, err, "field '%.40s': count '%.20s' is not in 1..%u", spec, br + 1,
                        SMMA_VEC_MAX_TOKENS);
    }
    if (smma_vec_type_from_name(colon + 1, &type, &e2) != SMMA_OK)
        return fail(r, err, "field '%.40s': %s", spec, e2.msg);
    if (smma_vec_header_add(&r->h, spec, type, out, block, (unsigned) count, &e2) != SMMA_OK)
        return fail(r, err, "%s", e2.msg);
    return SMMA_OK;
}

static int
read_header(smma_vec_reader *r, smma_error *err)
{
    char *tok[SMMA_VEC_MAX_FIELDS + 2];
    bool seen[9] = { false };
    static const char *const keys[] = { "suite", "generator", "seed",  "level", "profile",
                                        "model", "in",        "out",   "cases" };
    size_t n, i, k;
    int rc;
    uint64_t v;
    smma_error e2;

    smma_vec_header_init(&r->h);
    rc = read_line(r, err);
    if (rc == 0) {
        r->lineno = 1;
        return fail(r, err, "empty file (not a softmma vector file)");
    }
    if (rc != 1)
        return rc;
    if (strncmp(r->line, "softmma-vectors ", 16) != 0)
        return fail(r, err, "not a softmma vector file (the first line must be "
                            "'softmma-vectors %d')", SMMA_VEC_VERSION);
    if (!parse_dec(r->line + 16, 1000000, &v))
        return fail(r, err, "malformed format version '%.20s'", r->line + 16);
    if (v != SMMA_VEC_VERSION)
        return fail(r, err, "format version %llu is not supported (this reader reads "
                            "version %d)", (unsigned long long) v, SMMA_VEC_VERSION);
    for (;;) {
        rc = read_content(r, err);
        if (rc != 1)
            return rc == 0 ? fail(r, err, "unexpected end of file in the header (no 'cases' "
                                          "line)") : rc;
        if (strncmp(r->line, "generator ", 10) == 0) {
            /* The command is the rest of the line, spaces and all. */
            if (seen[1])
                return fail(r, err, "second 'generator' line");
            seen[1] = true;
            if (r->len - 10 >= SMMA_VEC_GEN_MAX || r->line[10] == '\0')
                return fail(r, err, "generator command empty or longer than %u bytes",
                            SMMA_VEC_GEN_MAX - 1);
            strcpy(r->h.generator, r->line + 10);
            continue;
        }
        n = split(r->line, tok, SMMA_VEC_MAX_FIELDS + 1);
        for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
            if (strcmp(tok[0], keys[k]) == 0)
                break;
        if (strcmp(tok[0], "block") == 0) {
            if (n != 3 || (strcmp(tok[1], "in") != 0 && strcmp(tok[1], "out") != 0))
                return fail(r, err, "malformed block line (block in|out NAME:TYPE)");
            if ((rc = parse_field(r, tok[2], tok[1][0] == 'o', true, err)) != SMMA_OK)
                return rc;
            continue;
        }
        if (k == sizeof(keys) / sizeof(keys[0]))
            return fail(r, err, "unknown header line '%.40s'", tok[0]);
        if (seen[k])
            return fail(r, err, "second '%s' line", keys[k]);
        seen[k] = true;
        if (n > SMMA_VEC_MAX_FIELDS + 1)
            return fail(r, err, "more than %u fields", SMMA_VEC_MAX_FIELDS);
        if (k == 6 || k == 7) {
            if (n < 2)
                return fail(r, err, "'%s' line without fields", keys[k]);
            for (i = 1; i < n; i++)
                if ((rc = parse_field(r, tok[i], k == 7, false, err)) != SMMA_OK)
                    return rc;
            continue;
        }
        if (n != 2)
            return fail(r, err, "'%s' takes one value", keys[k]);
        switch (k) {
        case 1:
            return fail(r, err, "malformed generator line (generator COMMAND)");
        case 0:
            if (smma_vec_suite_check(tok[1], &e2) != SMMA_OK)
                return fail(r, err, "%s", e2.msg);
            strcpy(r->h.suite, tok[1]);
            r->h.suite_line = r->lineno;
            break;
        case 2:
            if (!parse_dec(tok[1], UINT64_MAX, &r->h.seed))
                return fail(r, err, "malformed seed '%.30s' (a decimal number)", tok[1]);
            break;
        case 3:
            if (!parse_dec(tok[1], 9, &v))
                return fail(r, err, "malformed level '%.30s' (0 to 9)", tok[1]);
            r->h.level = (unsigned) v;
            break;
        case 4:
        case 5:
            if (strcmp(tok[1], "-") != 0 && !is_name(tok[1], true))
                return fail(r, err, "malformed %s name '%.40s'", keys[k], tok[1]);
            strcpy(k == 4 ? r->h.profile : r->h.model, tok[1]);
            break;
        default: /* cases */
            if (!parse_dec(tok[1], SMMA_VEC_MAX_CASES, &r->h.cases))
                return fail(r, err, "malformed case count '%.30s' (a decimal number up to %u)",
                            tok[1], SMMA_VEC_MAX_CASES);
            if (!seen[0])
                return fail(r, err, "no 'suite' line before 'cases'");
            if (smma_vec_header_check(&r->h, &e2) != SMMA_OK)
                return fail(r, err, "%s", e2.msg);
            return SMMA_OK;
        }
    }
}

static int
reader_start(smma_vec_reader *r, const char *name, smma_vec_reader **out, smma_error *err)
{
    int rc;

    snprintf(r->name, sizeof(r->name), "%s", name != NULL ? name : "(vectors)");
    rc = read_header(r, err);
    if (rc == SMMA_OK) {
        r->c.scalars = calloc(r->h.nscalars ? r->h.nscalars : 1, sizeof(uint64_t));
        if (r->c.scalars == NULL)
            rc = smma_error_set(err, SMMA_ENOMEM, "%s: out of memory", r->name);
    }
    if (rc != SMMA_OK) {
        smma_vec_close(r);
        return rc;
    }
    *out = r;
    return SMMA_OK;
}

int
smma_vec_open_file(FILE *f, const char *name, smma_vec_reader **out, smma_error *err)
{
    smma_vec_reader *r;

    if (f == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no stream to read");
    r = calloc(1, sizeof(*r));
    if (r == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    r->f = f;
    return reader_start(r, name, out, err);
}

int
smma_vec_open(const char *path, smma_vec_reader **out, smma_error *err)
{
    FILE *f;
    int rc;

    if (path == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no file to read");
    f = fopen(path, "rb");
    if (f == NULL)
        return smma_error_set(err, SMMA_EIO, "%s: cannot open: %s", path, strerror(errno));
    rc = smma_vec_open_file(f, path, out, err);
    if (rc == SMMA_OK)
        (*out)->own = true;
    else
        fclose(f);
    return rc;
}

int
smma_vec_open_mem(const void *data, size_t len, const char *name, smma_vec_reader **out,
                  smma_error *err)
{
    smma_vec_reader *r;

    if ((data == NULL && len != 0) || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no data to read");
    r = calloc(1, sizeof(*r));
    if (r == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    r->mem = data;
    r->memlen = len;
    return reader_start(r, name, out, err);
}

const smma_vec_header *
smma_vec_header_of(const smma_vec_reader *r)
{
    return &r->h;
}

size_t
smma_vec_line(const smma_vec_reader *r)
{
    return r->lineno;
}

void
smma_vec_close(smma_vec_reader *r)
{
    size_t i;

    if (r == NULL)
        return;
    if (r->own && r->f != NULL)
        fclose(r->f);
    free(r->c.scalars);
    for (i = 0; i < SMMA_VEC_MAX_FIELDS; i++)
        free(r->c.blocks[i].v);
    free(r);
}

/* Parses count tokens of field f from the line at *p into out; pos is the
 * number of tokens of the line already read, for messages. */
static int
parse_tokens(smma_vec_reader *r, const smma_vec_field *f, char **p, size_t count,
             size_t pos, size_t want, const char *what, uint64_t *out, smma_error *err)
{
    size_t i;
    int rc;

    for (i = 0; i < count; i++) {
        const char *t = next_token(p);

        if (t == NULL)
            return fail(r, err, "%s: expected %zu tokens, found %zu", what, want, pos + i);
        if ((rc = parse_token(r, f, t, &out[i], err)) != SMMA_OK)
            return rc;
    }
    return SMMA_OK;
}

/* Reads the block of field fi: its "NAME ROWS COLS" line and its rows. */
static int
read_block(smma_vec_reader *r, size_t fi, size_t *case_values, smma_error *err)
{
    const smma_vec_field *f = &r->h.fields[fi];
    smma_vec_block *b = &r->c.blocks[fi];
    char *tok[4], what[64];
    uint64_t rows, cols, i;
    int rc;

    rc = read_content(r, err);
    if (rc != 1)
        return rc == 0 ? fail(r, err, "unexpected end of file: block '%s' of case %llu is "
                                      "missing (truncated?)", f->name,
                              (unsigned long long) r->count) : rc;
    if (split(r->line, tok, 3) != 3 || strcmp(tok[0], f->name) != 0)
        return fail(r, err, "expected the line '%s ROWS COLS' of case %llu", f->name,
                    (unsigned long long) r->count);
    if (!parse_dec(tok[1], SMMA_VEC_MAX_DIM, &rows) ||
        !parse_dec(tok[2], SMMA_VEC_MAX_DIM, &cols) || rows == 0 || cols == 0)
        return fail(r, err, "block '%s': size '%.20s %.20s' is not two numbers in 1..%u",
                    f->name, tok[1], tok[2], SMMA_VEC_MAX_DIM);
    if (rows * cols > SMMA_VEC_MAX_BLOCK)
        return fail(r, err, "block '%s': %llu x %llu values is more than the limit %u",
                    f->name, (unsigned long long) rows, (unsigned long long) cols,
                    SMMA_VEC_MAX_BLOCK);
    if (rows * cols > SMMA_VEC_MAX_CASE - *case_values)
        return fail(r, err, "case %llu: its blocks hold more than %u values",
                    (unsigned long long) r->count, SMMA_VEC_MAX_CASE);
    *case_values += (size_t) (rows * cols);
    if (r->cap[fi] < rows * cols) {
        uint64_t *nv = realloc(b->v, (size_t) (rows * cols) * sizeof(uint64_t));

        if (nv == NULL) {
            snprintf(r->msg, sizeof(r->msg), "%s: out of memory", r->name);
            r->status = SMMA_ENOMEM;
            return smma_error_set(err, r->status, "%s", r->msg);
        }
        b->v = nv;
        r->cap[fi] = (size_t) (rows * cols);
    }
    b->rows = (size_t) rows;
    b->cols = (size_t) cols;
    for (i = 0; i < rows; i++) {
        char *p;

        rc = read_content(r, err);
        if (rc != 1)
            return rc == 0 ? fail(r, err, "unexpected end of file in block '%s' of case %llu "
                                          "(row %llu of %llu; truncated?)", f->name,
                                  (unsigned long long) r->count, (unsigned long long) i,
                                  (unsigned long long) rows) : rc;
        p = r->line;
        snprintf(what, sizeof(what), "block '%s' row %llu", f->name, (unsigned long long) i);
        if ((rc = parse_tokens(r, f, &p, (size_t) cols, 0, (size_t) cols, what,
                               b->v + i * cols, err)) != SMMA_OK)
            return rc;
        if (next_token(&p) != NULL)
            return fail(r, err, "%s: expected %llu tokens, found more", what,
                        (unsigned long long) cols);
    }
    return SMMA_OK;
}

int
smma_vec_next(smma_vec_reader *r, const smma_vec_case **c, smma_error *err)
{
    size_t fi, case_values = 0, want = r->h.nscalars;
    uint64_t index = r->count, got;
    char *p, *t;
    int rc;

    *c = NULL;
    if (r->status != SMMA_OK)
        return smma_error_set(err, r->status, "%s", r->msg);
    if (r->done)
        return SMMA_OK;
    rc = read_content(r, err);
    if (rc == 0)
        return fail(r, err, "unexpected end of file after %llu of %llu cases (truncated?)",
                    (unsigned long long) index, (unsigned long long) r->h.cases);
    if (rc != 1)
        return rc;
    if (index == r->h.cases) {
        /* Only "end" may follow the last case, then comments. */
        if (strcmp(r->line, "end") != 0)
            return fail(r, err, "expected 'end' after the %llu cases of the header",
                        (unsigned long long) r->h.cases);
        rc = read_content(r, err);
        if (rc == 1)
            return fail(r, err, "text after 'end'");
        if (rc != 0)
            return rc;
        r->done = true;
        return SMMA_OK;
    }
    if (strcmp(r->line, "end") == 0)
        return fail(r, err, "'end' after %llu cases, but the header says %llu",
                    (unsigned long long) index, (unsigned long long) r->h.cases);
    r->c.line = r->lineno;
    p = r->line;
    if (r->h.nblocks > 0) {
        t = next_token(&p);
        if (t == NULL || strcmp(t, "case") != 0)
            return fail(r, err, "expected 'case %llu' and %zu tokens",
                        (unsigned long long) index, want);
        t = next_token(&p);
        if (t == NULL || !parse_dec(t, UINT64_MAX, &got) || got != index)
            return fail(r, err, "expected case number %llu", (unsigned long long) index);
    }
    for (fi = 0; fi < r->h.nfields; fi++) {
        const smma_vec_field *f = &r->h.fields[fi];

        if (!f->block && (rc = parse_tokens(r, f, &p, f->count, f->offset, want, "case line",
                                            r->c.scalars + f->offset, err)) != SMMA_OK)
            return rc;
    }
    if (next_token(&p) != NULL)
        return fail(r, err, "case line: expected %zu tokens, found more", want);
    for (fi = 0; fi < r->h.nfields; fi++)
        if (r->h.fields[fi].block && (rc = read_block(r, fi, &case_values, err)) != SMMA_OK)
            return rc;
    r->c.index = index;
    r->count = index + 1;
    *c = &r->c;
    return SMMA_OK;
}

/* ------------------------------------------------------------------ writer */

struct smma_vec_writer {
    smma_vec_header h;
    char *body;             /* comments and cases */
    size_t len, cap;
    char *text;             /* the finished file */
    size_t tlen;
    uint64_t cases;
    bool finished;
    bool oom;
};

/* Appends n bytes to a growable buffer; false when memory runs out. */
static bool
append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (n > *cap - *len) {
        size_t ncap = *cap ? *cap : 4096;
        char *nb;

        while (n > ncap - *len) {
            if (ncap > SIZE_MAX / 2)
                return false;
            ncap *= 2;
        }
        nb = realloc(*buf, ncap);
        if (nb == NULL)
            return false;
        *buf = nb;
        *cap = ncap;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    return true;
}

static int
put(smma_vec_writer *w, const char *s, size_t n, smma_error *err)
{
    if (!append(&w->body, &w->len, &w->cap, s, n)) {
        w->oom = true;
        return smma_error_set(err, SMMA_ENOMEM, "out of memory writing %s", w->h.suite);
    }
    return SMMA_OK;
}

static int
writer_usable(smma_vec_writer *w, smma_error *err)
{
    if (w == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no writer");
    if (w->oom)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory writing %s", w->h.suite);
    if (w->finished)
        return smma_error_set(err, SMMA_EINVAL, "%s is finished: no more lines", w->h.suite);
    return SMMA_OK;
}

int
smma_vec_writer_new(const smma_vec_header *h, smma_vec_writer **out, smma_error *err)
{
    smma_vec_writer *w;
    int rc;

    if (h == NULL || out == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no header");
    w = calloc(1, sizeof(*w));
    if (w == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    w->h = *h;
    if ((rc = smma_vec_header_check(&w->h, err)) != SMMA_OK) {
        free(w);
        return rc;
    }
    *out = w;
    return SMMA_OK;
}

void
smma_vec_writer_free(smma_vec_writer *w)
{
    if (w == NULL)
        return;
    free(w->body);
    free(w->text);
    free(w);
}

int
smma_vec_put_comment(smma_vec_writer *w, const char *text, smma_error *err)
{
    size_t i, n;
    int rc;

    if ((rc = writer_usable(w, err)) != SMMA_OK)
        return rc;
    n = text != NULL ? strlen(text) : 0;
    for (i = 0; i < n; i++)
        if (text[i] < 0x20 || text[i] > 0x7e)
            return smma_error_set(err, SMMA_EINVAL, "a comment must be printable ASCII "
                                                    "without newlines");
    if (n > SMMA_VEC_MAX_LINE - 2)
        return smma_error_set(err, SMMA_EINVAL, "a comment of %zu bytes is too long", n);
    if ((rc = put(w, n > 0 ? "# " : "#", n > 0 ? 2 : 1, err)) != SMMA_OK ||
        (rc = put(w, text, n, err)) != SMMA_OK)
        return rc;
    return put(w, "\n", 1, err);
}

/* Appends the count values of field f at v, each after a space (or the
 * first at the line start when first is set). */
static int
put_values(smma_vec_writer *w, const smma_vec_field *f, const uint64_t *v, size_t count,
           bool first, smma_error *err)
{
    char tok[20];
    size_t i, n = types[f->type].digits;
    int rc;

    for (i = 0; i < count; i++) {
        if (v[i] > type_max(f->type))
            return smma_error_set(err, SMMA_ERANGE,
                                  "%s: value 0x%llx of field '%s' does not fit %s (%u bits)",
                                  w->h.suite, (unsigned long long) v[i], f->name,
                                  types[f->type].name, types[f->type].bits);
        tok[0] = ' ';
        smma_vec_format_token(f->type, v[i], tok + 1);
        if ((rc = put(w, first && i == 0 ? tok + 1 : tok, first && i == 0 ? n : n + 1, err)) !=
            SMMA_OK)
            return rc;
    }
    return SMMA_OK;
}

int
smma_vec_put_case(smma_vec_writer *w, const smma_vec_case *c, smma_error *err)
{
    size_t fi, r, total = 0, mark;
    char line[64];
    int rc;

    if ((rc = writer_usable(w, err)) != SMMA_OK)
        return rc;
    if (c == NULL || (w->h.nscalars > 0 && c->scalars == NULL))
        return smma_error_set(err, SMMA_EINVAL, "no case");
    if (w->cases == SMMA_VEC_MAX_CASES)
        return smma_error_set(err, SMMA_EINVAL, "more than %u cases", SMMA_VEC_MAX_CASES);
    for (fi = 0; fi < w->h.nfields; fi++) {
        const smma_vec_block *b = &c->blocks[fi];

        if (!w->h.fields[fi].block)
            continue;
        if (b->rows == 0 || b->cols == 0 || b->rows > SMMA_VEC_MAX_DIM ||
            b->cols > SMMA_VEC_MAX_DIM || b->rows * b->cols > SMMA_VEC_MAX_BLOCK ||
            b->v == NULL)
            return smma_error_set(err, SMMA_EINVAL, "%s: block '%s' of %zu x %zu values is "
                                  "empty or past the limits", w->h.suite,
                                  w->h.fields[fi].name, b->rows, b->cols);
        total += b->rows * b->cols;
    }
    if (total > SMMA_VEC_MAX_CASE)
        return smma_error_set(err, SMMA_EINVAL, "%s: the blocks of a case hold more than %u "
                              "values", w->h.suite, SMMA_VEC_MAX_CASE);
    /* On an error the partial line is taken back, so the text stays whole. */
    mark = w->len;
    if (w->h.nblocks > 0) {
        snprintf(line, sizeof(line), "case %llu", (unsigned long long) w->cases);
        rc = put(w, line, strlen(line), err);
    }
    for (fi = 0; rc == SMMA_OK && fi < w->h.nfields; fi++) {
        const smma_vec_field *f = &w->h.fields[fi];

        if (!f->block)
            rc = put_values(w, f, c->scalars + f->offset, f->count,
                            w->h.nblocks == 0 && f->offset == 0, err);
    }
    if (rc == SMMA_OK)
        rc = put(w, "\n", 1, err);
    for (fi = 0; rc == SMMA_OK && fi < w->h.nfields; fi++) {
        const smma_vec_field *f = &w->h.fields[fi];
        const smma_vec_block *b = &c->blocks[fi];

        if (!f->block)
            continue;
        snprintf(line, sizeof(line), "%s %zu %zu\n", f->name, b->rows, b->cols);
        rc = put(w, line, strlen(line), err);
        for (r = 0; rc == SMMA_OK && r < b->rows; r++) {
            rc = put_values(w, f, b->v + r * b->cols, b->cols, true, err);
            if (rc == SMMA_OK)
                rc = put(w, "\n", 1, err);
        }
    }
    if (rc != SMMA_OK) {
        w->len = mark;
        return rc;
    }
    w->cases++;
    return SMMA_OK;
}

int
smma_vec_put_row(smma_vec_writer *w, const uint64_t *scalars, smma_error *err)
{
    smma_vec_case c;
    int rc;

    if ((rc = writer_usable(w, err)) != SMMA_OK)
        return rc;
    if (w->h.nblocks > 0)
        return smma_error_set(err, SMMA_EINVAL, "%s has blocks: use smma_vec_put_case",
                              w->h.suite);
    memset(&c, 0, sizeof(c));
    c.scalars = (uint64_t *) (uintptr_t) scalars;
    return smma_vec_put_case(w, &c, err);
}

/* Appends "KEY fields" for the scalar fields of one direction. */
static bool
header_fields(const smma_vec_header *h, bool out, char **t, size_t *len, size_t *cap)
{
    char spec[SMMA_VEC_NAME_MAX + 24];
    size_t i;
    bool any = false;

    for (i = 0; i < h->nfields; i++) {
        const smma_vec_field *f = &h->fields[i];

        if (f->block || f->out != out)
            continue;
        if (f->count == 1)
            snprintf(spec, sizeof(spec), "%s%s:%s", any ? " " : out ? "out " : "in ", f->name,
                     types[f->type].name);
        else
            snprintf(spec, sizeof(spec), "%s%s:%s[%u]", any ? " " : out ? "out " : "in ",
                     f->name, types[f->type].name, f->count);
        if (!append(t, len, cap, spec, strlen(spec)))
            return false;
        any = true;
    }
    return !any || append(t, len, cap, "\n", 1);
}

int
smma_vec_finish(smma_vec_writer *w, const char **text, size_t *len, smma_error *err)
{
    const smma_vec_header *h;
    char line[2048];
    size_t i, cap = 0;
    bool okay;

    if (w == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no writer");
    if (w->oom)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory writing %s", w->h.suite);
    h = &w->h;
    if (!w->finished) {
        snprintf(line, sizeof(line),
                 "softmma-vectors %u\nsuite %s\ngenerator %s\nseed %llu\nlevel %u\n"
                 "profile %s\nmodel %s\n", h->version, h->suite, h->generator,
                 (unsigned long long) h->seed, h->level, h->profile, h->model);
        okay = append(&w->text, &w->tlen, &cap, line, strlen(line)) &&
               header_fields(h, false, &w->text, &w->tlen, &cap) &&
               header_fields(h, true, &w->text, &w->tlen, &cap);
        for (i = 0; okay && i < h->nfields; i++) {
            const smma_vec_field *f = &h->fields[i];

            if (!f->block)
                continue;
            snprintf(line, sizeof(line), "block %s %s:%s\n", f->out ? "out" : "in", f->name,
                     types[f->type].name);
            okay = append(&w->text, &w->tlen, &cap, line, strlen(line));
        }
        snprintf(line, sizeof(line), "cases %llu\n", (unsigned long long) w->cases);
        okay = okay && append(&w->text, &w->tlen, &cap, line, strlen(line)) &&
               append(&w->text, &w->tlen, &cap, w->body != NULL ? w->body : "", w->len) &&
               append(&w->text, &w->tlen, &cap, "end\n", 4);
        if (!okay) {
            w->oom = true;
            return smma_error_set(err, SMMA_ENOMEM, "out of memory writing %s", h->suite);
        }
        free(w->body);
        w->body = NULL;
        w->len = w->cap = 0;
        w->finished = true;
    }
    if (text != NULL)
        *text = w->text;
    if (len != NULL)
        *len = w->tlen;
    return SMMA_OK;
}

int
smma_vec_save_bytes(const void *data, size_t len, const char *path, smma_error *err)
{
    const char *p = data;
    char *tmp;
    size_t done = 0;
    int fd, rc = SMMA_OK;

    if (path == NULL || (data == NULL && len != 0))
        return smma_error_set(err, SMMA_EINVAL, "no path or no data");
    tmp = malloc(strlen(path) + 12);
    if (tmp == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    sprintf(tmp, "%s.tmpXXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = smma_error_set(err, SMMA_EIO, "%s: cannot create a temporary file beside it: %s",
                            path, strerror(errno));
        free(tmp);
        return rc;
    }
    while (rc == SMMA_OK && done < len) {
        ssize_t n = write(fd, p + done, len - done);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            rc = smma_error_set(err, SMMA_EIO, "%s: write error: %s", path,
                                n < 0 ? strerror(errno) : "nothing written");
        else
            done += (size_t) n;
    }
    if (rc == SMMA_OK && (fchmod(fd, 0644) != 0 || fsync(fd) != 0))
        rc = smma_error_set(err, SMMA_EIO, "%s: cannot flush: %s", path, strerror(errno));
    if (close(fd) != 0 && rc == SMMA_OK)
        rc = smma_error_set(err, SMMA_EIO, "%s: cannot close: %s", path, strerror(errno));
    if (rc == SMMA_OK && rename(tmp, path) != 0)
        rc = smma_error_set(err, SMMA_EIO, "%s: cannot rename the temporary file to it: %s",
                            path, strerror(errno));
    if (rc != SMMA_OK)
        unlink(tmp);
    free(tmp);
    return rc;
}

int
smma_vec_save(smma_vec_writer *w, const char *path, smma_error *err)
{
    const char *text;
    size_t len;
    int rc = smma_vec_finish(w, &text, &len, err);

    if (rc != SMMA_OK)
        return rc;
    return smma_vec_save_bytes(text, len, path, err);
}

/* ------------------------------------------------------------------ SHA-256 */

static const uint32_t sha_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u,
};

static uint32_t
ror(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void
sha_block(smma_sha256 *s, const unsigned char *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, h;
    unsigned i;

    for (i = 0; i < 16; i++)
        w[i] = (uint32_t) p[4 * i] << 24 | (uint32_t) p[4 * i + 1] << 16 |
               (uint32_t) p[4 * i + 2] << 8 | (uint32_t) p[4 * i + 3];
    for (i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
    e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (i = 0; i < 64; i++) {
        uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
                      sha_k[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

        h = g, g = f, f = e, e = d + t1;
        d = c, c = b, b = a, a = t1 + t2;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
    s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

void
smma_sha256_init(smma_sha256 *s)
{
    static const uint32_t h0[8] = { 0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u };

    memcpy(s->h, h0, sizeof(h0));
    s->bytes = 0;
    s->nbuf = 0;
}

void
smma_sha256_update(smma_sha256 *s, const void *data, size_t len)
{
    const unsigned char *p = data;

    s->bytes += len;
    while (len > 0) {
        size_t n = 64 - s->nbuf < len ? 64 - s->nbuf : len;

        if (s->nbuf == 0 && len >= 64) {
            sha_block(s, p);
            p += 64;
            len -= 64;
            continue;
        }
        memcpy(s->buf + s->nbuf, p, n);
        s->nbuf += n;
        p += n;
        len -= n;
        if (s->nbuf == 64) {
            sha_block(s, s->buf);
            s->nbuf = 0;
        }
    }
}

void
smma_sha256_final(smma_sha256 *s, uint8_t digest[32])
{
    uint64_t bits = s->bytes * 8;
    unsigned i;

    s->buf[s->nbuf++] = 0x80;
    if (s->nbuf > 56) {
        memset(s->buf + s->nbuf, 0, 64 - s->nbuf);
        sha_block(s, s->buf);
        s->nbuf = 0;
    }
    memset(s->buf + s->nbuf, 0, 56 - s->nbuf);
    for (i = 0; i < 8; i++)
        s->buf[56 + i] = (unsigned char) (bits >> (56 - 8 * i));
    sha_block(s, s->buf);
    for (i = 0; i < 32; i++)
        digest[i] = (uint8_t) (s->h[i / 4] >> (24 - 8 * (i % 4)));
}

void
smma_sha256_hex(const void *data, size_t len, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    smma_sha256 s;
    uint8_t d[32];
    unsigned i;

    smma_sha256_init(&s);
    smma_sha256_update(&s, data, len);
    smma_sha256_final(&s, d);
    for (i = 0; i < 32; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 0xf];
    }
    hex[64] = '\0';
}
