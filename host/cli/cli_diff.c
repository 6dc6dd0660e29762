/* ladder diff: what a rung changes in its parent's kernel, comments left out.
 *
 * Each kernel file opens with a long comment (what changed, why it should help) and keeps
 * its comments through the code, so a plain diff of two files is mostly prose. This one
 * strips the comments and blank lines of both files (base/source_strip.h) into temporary
 * files and runs `diff -u` on them, with labels that name the files as they are in the
 * source tree, so the output is the same on every machine (the tutorial commits it). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/kernel_path.h"
#include "base/source_strip.h"
#include "base/text_file.h"
#include "cli/cli.h"
#include "rungs/registry.h"

/* Exit status of the child when exec fails: the shell's "command not found". */
#define EXEC_FAILED 127

static void print_help(void)
{
    printf("usage: ladder diff RUNG [--backend cuda|opencl]\n"
           "\n"
           "Prints what rung RUNG (a number or a name) changes in its parent's kernel: a\n"
           "unified diff (diff -u) of the parent's kernel file and the rung's, with the\n"
           "comments and blank lines of both left out. The parent is the rung whose kernel\n"
           "this one changes (ladder list names it): after rung 10 that is not always the\n"
           "rung numbered before (15 changes 12, 17 changes 9).\n"
           "\n"
           "  --backend B   cuda (the default: every rung has a CUDA kernel) or opencl\n"
           "\n"
           "Kernel files are read from kernels-cuda/ and kernels-opencl/ of the source tree\n"
           "(or $LADDER_CUDA_KERNELS, $LADDER_OPENCL_KERNELS). Needs diff(1).\n"
           "\n"
           "Exit status: 0 printed; 1 a file could not be read or diff failed; 2 bad usage\n"
           "(no such rung, rung 1 or a baseline, which have no parent, a backend without\n"
           "the rung).\n"
           "\n"
           "Examples:\n"
           "  ladder diff 2              # tiling: what it changes in the naive kernel\n"
           "  ladder diff 17             # register banks, against rung 9\n"
           "  ladder diff 11 --backend opencl\n");
}

static const char *display_name(const char *backend)
{
    return strcmp(backend, "cuda") == 0 ? "CUDA" : "OpenCL";
}

/* "kernels-cuda/09-prefetch.cu": the file as the source tree names it (for the labels). */
static void tree_name(const char *backend, const rung *r, char *out, size_t size)
{
    snprintf(out, size, "kernels-%s/%s.%s", backend, r->id,
             strcmp(backend, "cuda") == 0 ? "cu" : "cl");
}

/* The kernel file of rung `r` without its comments, written to a new temporary file whose
 * name goes into `tmp` (the caller removes it). 0, or 1 after printing why. */
static int write_stripped(const char *backend, const rung *r, char *tmp, size_t size)
{
    char path[4096], msg[LADDER_MSG];
    kernel_path(backend, r->id, path, sizeof path);
    char *text = NULL;
    if (text_file_read(path, &text, NULL, msg) != LADDER_OK) {
        fprintf(stderr, "ladder diff: rung %d %s: %s\n", r->number, r->name, msg);
        return 1;
    }
    char *stripped = source_strip_comments(text);
    free(text);
    if (!stripped) {
        fprintf(stderr, "ladder diff: out of memory stripping %s\n", path);
        return 1;
    }
    const char *dir = getenv("TMPDIR");
    snprintf(tmp, size, "%s/ladder-diff-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "ladder diff: cannot create a temporary file %s: %s\n", tmp,
                strerror(errno));
        tmp[0] = '\0';
        free(stripped);
        return 1;
    }
    FILE *f = fdopen(fd, "w");
    if (!f)
        close(fd);
    int ok = f && fputs(stripped, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    free(stripped);
    if (!ok) {
        fprintf(stderr, "ladder diff: cannot write the temporary file %s: %s\n", tmp,
                strerror(errno));
        return 1;
    }
    return 0;
}

/* Runs `diff -u --label A --label B FILE_A FILE_B`, its output to ours. Returns diff's
 * answer, 0 (the files are the same) or 1 (they differ), or -1 after printing why it did
 * not run. */
static int run_diff(const char *label_a, const char *label_b, const char *a, const char *b)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "ladder diff: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        execlp("diff", "diff", "-u", "--label", label_a, "--label", label_b, a, b,
               (char *)NULL);
        _exit(EXEC_FAILED);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "ladder diff: waitpid: %s\n", strerror(errno));
            return -1;
        }
    }
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (rc == 0 || rc == 1) /* diff's "same" and "different" */
        return rc;
    if (rc == EXEC_FAILED)
        fprintf(stderr, "ladder diff: diff(1) not found: install it (apt-get install "
                        "diffutils)\n");
    else
        fprintf(stderr, "ladder diff: diff failed (exit status %d)\n", rc);
    return -1;
}

int cmd_diff(int argc, char **argv)
{
    const char *key = NULL, *backend = "cuda", *v;
    int got;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_help();
            return 0;
        }
        CLI_OPTION("--backend", (backend = v, 0))
        if (argv[i][0] == '-')
            return cli_usage_error("diff", "unknown option %s (see ladder diff --help)",
                                   argv[i]);
        if (key)
            return cli_usage_error("diff", "one rung at a time: '%s' and '%s' given", key,
                                   argv[i]);
        key = argv[i];
    }
    if (!key)
        return cli_usage_error("diff", "which rung? usage: ladder diff RUNG [--backend "
                                       "cuda|opencl]");
    if (strcmp(backend, "cuda") != 0 && strcmp(backend, "opencl") != 0)
        return cli_usage_error("diff", "--backend: '%s' is not cuda or opencl", backend);
    const rung *r = registry_find(key);
    if (!r)
        return cli_usage_error("diff", "no rung '%s' (ladder list shows them)", key);
    if (r->kind != RUNG_KERNEL)
        return cli_usage_error("diff", "'%s' is not a kernel rung: it has no kernel file to "
                                       "compare", key);
    const rung *parent = rung_parent(r);
    if (!parent)
        return cli_usage_error("diff", "rung %d %s has no parent: it is where the ladder "
                                       "starts (read it whole: kernels-%s/%s.%s)",
                               r->number, r->name, backend, r->id,
                               strcmp(backend, "cuda") == 0 ? "cu" : "cl");
    const rung *lacking = !rung_on_backend(r, backend)        ? r
                          : !rung_on_backend(parent, backend) ? parent
                                                              : NULL;
    if (lacking)
        return cli_usage_error("diff", "rung %d %s has no %s kernel (%s only): use "
                                       "--backend %s", lacking->number, lacking->name,
                               display_name(backend), display_name(lacking->only_backend),
                               lacking->only_backend);

    char tmp_parent[4096] = "", tmp_rung[4096] = "";
    int rc = write_stripped(backend, parent, tmp_parent, sizeof tmp_parent);
    if (rc == 0)
        rc = write_stripped(backend, r, tmp_rung, sizeof tmp_rung);
    if (rc == 0) {
        char name_parent[256], name_rung[256], label_a[512], label_b[512];
        tree_name(backend, parent, name_parent, sizeof name_parent);
        tree_name(backend, r, name_rung, sizeof name_rung);
        snprintf(label_a, sizeof label_a, "%s (rung %d, the parent, without comments)",
                 name_parent, parent->number);
        snprintf(label_b, sizeof label_b, "%s (rung %d, without comments)", name_rung,
                 r->number);
        const int differ = run_diff(label_a, label_b, tmp_parent, tmp_rung);
        if (differ == 0) /* rung 10: its change is in the host (padding), not the kernel */
            printf("%s and %s are the same without comments: rung %d changes what the "
                   "host does around the kernel (its entry in host/rungs/).\n",
                   name_rung, name_parent, r->number);
        rc = differ < 0;
    }
    if (tmp_parent[0])
        unlink(tmp_parent);
    if (tmp_rung[0])
        unlink(tmp_rung);
    return rc;
}
