/* Running gnuplot as a child process (fork and exec: no shell, so no quoting of paths) and
 * checking its pictures. gnuplot exits non-zero when a script fails, but it can also write a
 * truncated file before failing, so every picture is checked rather than trusted.
 */
#include "report/plot_gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LADDER_SOURCE_DIR
#define LADDER_SOURCE_DIR "."
#endif

/* Exit status the child uses when exec fails: the shell's "command not found". */
#define EXEC_FAILED 127

const char *gnuplot_program(void)
{
    const char *p = getenv("LADDER_GNUPLOT");
    return p && *p ? p : "gnuplot";
}

/* Runs gnuplot with one argument, stdout and stderr to `log_path` (or discarded when
 * NULL). Returns the exit status, EXEC_FAILED if it could not start, -1 if fork failed. */
static int run_gnuplot(const char *arg, const char *log_path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log_path ? log_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        execlp(gnuplot_program(), gnuplot_program(), arg, (char *)NULL);
        _exit(EXEC_FAILED);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

ladder_status gnuplot_check(char *msg)
{
    int rc = run_gnuplot("--version", NULL);
    if (rc == 0)
        return LADDER_OK;
    if (rc == EXEC_FAILED)
        return ladder_fail(msg, LADDER_ERROR, "%s not found: install it (apt-get install "
                           "gnuplot-nox) or run tools/install-deps.sh", gnuplot_program());
    return ladder_fail(msg, LADDER_ERROR, "'%s --version' failed (exit status %d): is gnuplot "
                       "installed correctly? (apt-get install gnuplot-nox)", gnuplot_program(), rc);
}

ladder_status gnuplot_scripts_dir(char *dir, size_t size, char *msg)
{
    const char *env = getenv("LADDER_PLOTS_DIR");
    if (env && *env)
        snprintf(dir, size, "%s", env);
    else
        snprintf(dir, size, "%s/plots", LADDER_SOURCE_DIR);
    char style[4096];
    snprintf(style, sizeof style, "%s/style.gp", dir);
    if (access(style, R_OK) != 0)
        return ladder_fail(msg, LADDER_ERROR, "the gnuplot scripts are not in %s (no style.gp "
                           "there): set LADDER_PLOTS_DIR to the plots/ folder of the source tree",
                           dir);
    return LADDER_OK;
}

/* The last line of the log that mentions an error, else its last non-empty line: gnuplot
 * prints warnings too, and the line that stopped it is the one the user needs. */
static void last_error_line(const char *log_path, char *out, size_t size)
{
    snprintf(out, size, "no output from gnuplot");
    FILE *f = fopen(log_path, "r");
    if (!f)
        return;
    char line[512], last[512] = "";
    int have_error = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = line + strspn(line, " \t^");
        if (*p == '\0')
            continue;
        int is_error = strstr(p, "rror") != NULL;
        if (is_error || !have_error) {
            snprintf(last, sizeof last, "%s", p);
            have_error |= is_error;
        }
    }
    fclose(f);
    if (last[0])
        snprintf(out, size, "%s", last);
}

ladder_status gnuplot_run(const char *script, const char *log_path, char *msg)
{
    int rc = run_gnuplot(script, log_path);
    if (rc == 0)
        return LADDER_OK;
    if (rc == EXEC_FAILED)
        return ladder_fail(msg, LADDER_ERROR, "%s not found: install it (apt-get install "
                           "gnuplot-nox) or run tools/install-deps.sh", gnuplot_program());
    char why[512];
    last_error_line(log_path, why, sizeof why);
    return ladder_fail(msg, LADDER_ERROR, "gnuplot failed on %s (exit status %d): %s", script,
                       rc, why);
}

void gnuplot_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        if (*s != '\n' && *s != '\r')
            fputc(*s, f);
    }
    fputc('\'', f);
}

void gnuplot_set_string(FILE *f, const char *name, const char *value)
{
    fprintf(f, "%s = ", name);
    gnuplot_quote(f, value);
    fputc('\n', f);
}

void gnuplot_set_number(FILE *f, const char *name, double value)
{
    fprintf(f, "%s = %.17g\n", name, value);
}

ladder_status picture_check(const char *path, const char *format, char *msg)
{
    static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    FILE *f = fopen(path, "rb");
    if (!f)
        return ladder_fail(msg, LADDER_ERROR, "gnuplot wrote no %s", path);
    /* Read the whole file: figures are tens of kilobytes. */
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *bytes = size > 0 ? malloc((size_t)size + 1) : NULL;
    size_t got = bytes ? fread(bytes, 1, (size_t)size, f) : 0;
    fclose(f);
    ladder_status st = LADDER_OK;
    if (size <= 0)
        st = ladder_fail(msg, LADDER_ERROR, "gnuplot wrote an empty %s", path);
    else if (!bytes || got != (size_t)size)
        st = ladder_fail(msg, LADDER_ERROR, "could not read back %s", path);
    else if (strcmp(format, "png") == 0 &&
             (size < 8 || memcmp(bytes, png_signature, sizeof png_signature) != 0))
        st = ladder_fail(msg, LADDER_ERROR, "%s is not a PNG picture", path);
    else if (strcmp(format, "svg") == 0) {
        bytes[size] = '\0';
        if (!strstr(bytes, "<svg") || !strstr(bytes, "</svg>"))
            st = ladder_fail(msg, LADDER_ERROR, "%s is not a complete SVG picture", path);
    }
    free(bytes);
    return st;
}
