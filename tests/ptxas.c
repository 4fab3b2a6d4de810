/*
 * tests/ptxas.c - see ptxas.h.  Module files are mkstemp files under
 * $TMPDIR (or /tmp), removed after each run.
 */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptxas.h"
#include "tap/basic.h"

#ifndef SMMA_NVCC
#define SMMA_NVCC ""
#endif

static char ptxas[4096];
static int found = -1;

bool
ptxas_available(void)
{
    if (found < 0) {
        found = 0;
#ifdef HAVE_CUDA
        const char *nvcc = SMMA_NVCC;
        size_t n = strlen(nvcc);

        if (n >= 4 && strcmp(nvcc + n - 4, "nvcc") == 0 && n + 2 < sizeof(ptxas)) {
            memcpy(ptxas, nvcc, n - 4);
            strcpy(ptxas + n - 4, "ptxas");
            found = access(ptxas, X_OK) == 0;
        }
#endif
    }
    return found == 1;
}

static int
temp_file(char *path, size_t n, const char *stem)
{
    const char *tmpdir = getenv("TMPDIR");
    int fd;

    if (tmpdir == NULL || *tmpdir == '\0')
        tmpdir = "/tmp";
    snprintf(path, n, "%s/%s-XXXXXX", tmpdir, stem);
    fd = mkstemp(path);
    if (fd < 0)
        sysbail("cannot create %s", path);
    return fd;
}

/* Runs the shell command cmd with its output sent to a temporary file; when
 * show is true, the first five lines of that output are shown as TAP
 * diagnostics prefixed by tag.  Returns the exit status, or -1 when the
 * command could not be run. */
static int
run_logged(const char *cmd, const char *tag, bool show)
{
    char errpath[4096], full[6 * 4096], line[512];
    FILE *f;
    int rc, n = 0;

    close(temp_file(errpath, sizeof(errpath), "smma-tool"));
    snprintf(full, sizeof(full), "%s >'%s' 2>&1", cmd, errpath);
    rc = system(full);
    rc = rc == -1 ? -1 : (WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
    if (show && (f = fopen(errpath, "r")) != NULL) {
        while (n++ < 5 && fgets(line, sizeof(line), f) != NULL)
            diag("%s: %s", tag, strtok(line, "\n"));
        fclose(f);
    }
    remove(errpath);
    return rc;
}

int
ptxas_module(const char *version, const char *target, const char *body, bool show)
{
    char path[4096], cmd[4 * 4096];
    FILE *f;
    int fd, rc;

    if (!ptxas_available())
        return -1;
    fd = temp_file(path, sizeof(path), "smma-ptx");
    f = fdopen(fd, "w");
    if (f == NULL)
        sysbail("cannot open %s", path);
    fprintf(f, ".version %s\n.target %s\n.address_size 64\n\n"
               ".visible .entry smma_ptx_test()\n{\n%s    ret;\n}\n",
            version, target, body);
    if (fclose(f) != 0)
        sysbail("cannot write %s", path);
    snprintf(cmd, sizeof(cmd), "'%s' -arch=%s '%s' -o /dev/null", ptxas, target, path);
    rc = run_logged(cmd, "ptxas", show);
    remove(path);
    return rc;
}

bool
nvcc_available(void)
{
    return SMMA_NVCC[0] != '\0' && access(SMMA_NVCC, X_OK) == 0;
}

int
nvcc_cubin(const char *arch, const char *args, const char *src, bool show)
{
    char out[4096], cmd[4 * 4096];
    int rc;

    if (!nvcc_available())
        return -1;
    close(temp_file(out, sizeof(out), "smma-cubin"));
    snprintf(cmd, sizeof(cmd), "'%s' -arch=%s -cubin %s -o '%s' '%s'", SMMA_NVCC, arch, args,
             out, src);
    rc = run_logged(cmd, "nvcc", show);
    remove(out);
    return rc;
}
