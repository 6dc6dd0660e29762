/* Run-time compilation of kernel files with NVRTC (see nvrtc_compile.h).
 *
 * The steps are the ones nvcc takes, done by hand: read the source, hand it to NVRTC with
 * the rung's parameters as -D options, and ask for a CUBIN (machine code for one GPU
 * generation) rather than PTX, so the driver has nothing left to compile at load time and
 * compile errors all surface here, with the compiler's log.
 */
#include "backends/cuda/nvrtc_compile.h"
#include "base/text_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvrtc.h>

/* Most options one compile takes: the rung's defines plus the few added here. Rungs have
 * at most RUNG_MAX_PARAMS (8) parameters, so this leaves plenty of room. */
#define MAX_OPTIONS 48

/* The part of `path` after the last '/': NVRTC prefixes every log line with the program
 * name, and "01-naive.cu(12): error" reads better than the full path repeated. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "-I<directory of path>" in a heap buffer, so a kernel may #include a header next to it. */
static char *include_option_for(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_length = slash ? (size_t)(slash - path) : 1;
    char *option = malloc(dir_length + 3);
    if (!option)
        return NULL;
    memcpy(option, "-I", 2);
    if (slash)
        memcpy(option + 2, path, dir_length);
    else
        option[2] = '.';
    option[2 + dir_length] = '\0';
    return option;
}

/* Splits `words` (modified in place) at spaces and tabs into argv[*argc...]. */
static ladder_status split_words(char *words, const char **argv, int *argc, int max,
                                 char *msg)
{
    char *cursor = words;
    for (;;) {
        while (*cursor == ' ' || *cursor == '\t')
            cursor++;
        if (*cursor == '\0')
            return LADDER_OK;
        if (*argc == max)
            return ladder_fail(msg, LADDER_ERROR, "nvrtc: more than %d compiler options", max);
        argv[(*argc)++] = cursor;
        while (*cursor != '\0' && *cursor != ' ' && *cursor != '\t')
            cursor++;
        if (*cursor != '\0')
            *cursor++ = '\0';
    }
}

/* NVRTC's log for `program` without its trailing newlines (malloc'd; free it), or NULL
 * when it is empty or cannot be had. */
static char *program_log(nvrtcProgram program)
{
    size_t log_size = 0;
    char *log = NULL;
    if (nvrtcGetProgramLogSize(program, &log_size) == NVRTC_SUCCESS && log_size > 1) {
        log = malloc(log_size);
        if (log && nvrtcGetProgramLog(program, log) != NVRTC_SUCCESS) {
            free(log);
            log = NULL;
        }
    }
    if (log) {
        /* Trailing newlines would leave blank lines in the harness's output. */
        size_t n = strlen(log);
        while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == '\r'))
            log[--n] = '\0';
    }
    return log;
}

/* Copies NVRTC's log for `program` after `prefix` into msg, cut to fit. */
static void message_with_log(nvrtcProgram program, const char *prefix, char *msg)
{
    char *log = program_log(program);
    ladder_fail(msg, LADDER_ERROR, "%s%s", prefix, log ? log : "(NVRTC gave no log)");
    free(log);
}

/* Copies the compiled CUBIN out of the program into a heap buffer. */
static ladder_status take_cubin(nvrtcProgram program, const char *path, char **image,
                                size_t *image_size, char *msg)
{
    size_t size = 0;
    nvrtcResult rc = nvrtcGetCUBINSize(program, &size);
    if (rc != NVRTC_SUCCESS)
        return ladder_fail(msg, LADDER_ERROR, "nvrtcGetCUBINSize(%s): %s", path,
                           nvrtcGetErrorString(rc));
    if (size == 0) /* happens when the architecture was a virtual one (compute_XY) */
        return ladder_fail(msg, LADDER_ERROR,
                           "nvrtcGetCUBINSize(%s): no CUBIN produced (is the architecture a "
                           "real sm_XY one?)", path);
    char *cubin = malloc(size);
    if (!cubin)
        return ladder_fail(msg, LADDER_ERROR, "malloc(%zu bytes) for the CUBIN of %s", size,
                           path);
    rc = nvrtcGetCUBIN(program, cubin);
    if (rc != NVRTC_SUCCESS) {
        free(cubin);
        return ladder_fail(msg, LADDER_ERROR, "nvrtcGetCUBIN(%s): %s", path,
                           nvrtcGetErrorString(rc));
    }
    *image = cubin;
    *image_size = size;
    return LADDER_OK;
}

/* The PTX NVRTC made on its way to the CUBIN, as a heap string (free() it), or NULL. */
static char *take_ptx(nvrtcProgram program)
{
    size_t size = 0;
    char *ptx = NULL;
    if (nvrtcGetPTXSize(program, &size) == NVRTC_SUCCESS && size > 0 &&
        (ptx = malloc(size)) && nvrtcGetPTX(program, ptx) != NVRTC_SUCCESS) {
        free(ptx);
        ptx = NULL;
    }
    return ptx;
}

/* Compiles `source` (already read from `path`) with the option list `argv`. With `log`,
 * a successful compile also hands back NVRTC's log there (NULL when it is empty); with
 * `ptx`, the PTX (NULL when NVRTC cannot give it). */
static ladder_status compile_source(const char *source, const char *path, const char *options,
                                    const char **argv, int argc, char **image,
                                    size_t *image_size, char **log, char **ptx, char *msg)
{
    nvrtcProgram program;
    nvrtcResult rc = nvrtcCreateProgram(&program, source, base_name(path), 0, NULL, NULL);
    if (rc != NVRTC_SUCCESS)
        return ladder_fail(msg, LADDER_ERROR, "nvrtcCreateProgram(%s): %s", path,
                           nvrtcGetErrorString(rc));

    ladder_status status = LADDER_OK;
    rc = nvrtcCompileProgram(program, argc, argv);
    if (rc != NVRTC_SUCCESS) {
        /* The log says what went wrong, both for source errors and for bad options. */
        char prefix[LADDER_MSG];
        snprintf(prefix, sizeof prefix, "nvrtc: %s with %s: %s: ", path,
                 options[0] ? options : "no options", nvrtcGetErrorString(rc));
        message_with_log(program, prefix, msg);
        status = LADDER_ERROR;
    } else {
        status = take_cubin(program, path, image, image_size, msg);
        if (status == LADDER_OK && log)
            *log = program_log(program);
        if (status == LADDER_OK && ptx)
            *ptx = take_ptx(program);
    }

    rc = nvrtcDestroyProgram(&program);
    if (rc != NVRTC_SUCCESS && status == LADDER_OK) {
        free(*image);
        *image = NULL;
        status = ladder_fail(msg, LADDER_ERROR, "nvrtcDestroyProgram(%s): %s", path,
                             nvrtcGetErrorString(rc));
    }
    return status;
}

ladder_status nvrtc_compile_file(const char *path, const char *options, const char *arch,
                                 char **image, size_t *image_size, char *msg)
{
    *image = NULL;
    *image_size = 0;
    char *source = NULL;
    ladder_status status = text_file_read(path, &source, NULL, msg);
    if (status == LADDER_OK)
        status = nvrtc_compile_text(path, source, options, arch, image, image_size, msg);
    free(source);
    return status;
}

/* nvrtc_compile_text, and with `log` the log of a successful compile, with `ptx` its
 * PTX. */
static ladder_status compile_text(const char *path, const char *source, const char *options,
                                  const char *arch, char **image, size_t *image_size,
                                  char **log, char **ptx, char *msg)
{
    *image = NULL;
    *image_size = 0;
    if (!options)
        options = "";
    if (strncmp(arch, "sm_", 3) != 0)
        return ladder_fail(msg, LADDER_ERROR,
                           "nvrtc: architecture \"%s\" is not a real sm_XY one, so no CUBIN "
                           "can be made", arch);

    ladder_status status = LADDER_OK;
    char arch_option[64];
    snprintf(arch_option, sizeof arch_option, "--gpu-architecture=%s", arch);
    char *include_option = include_option_for(path);
    char *defines = strdup(options); /* split_words cuts it up in place */
    if (!include_option || !defines) {
        status = ladder_fail(msg, LADDER_ERROR, "malloc: out of memory compiling %s", path);
        goto done;
    }

    const char *argv[MAX_OPTIONS];
    int argc = 0;
    /* First, so that an architecture among the options (an arch-specific target such as
     * sm_90a, which the registry asks for: rung.cuda_arch_specific) comes later and
     * replaces it: NVRTC takes the last one given. */
    argv[argc++] = arch_option;
    argv[argc++] = "-std=c++17";
    /* Line information costs nothing at run time and lets a profiler (Nsight Compute)
     * show which source line each instruction came from. */
    argv[argc++] = "-lineinfo";
    argv[argc++] = include_option;
    status = split_words(defines, argv, &argc, MAX_OPTIONS, msg);
    if (status == LADDER_OK)
        status = compile_source(source, path, options, argv, argc, image, image_size, log,
                                ptx, msg);

done:
    free(defines);
    free(include_option);
    return status;
}

ladder_status nvrtc_compile_text(const char *path, const char *source, const char *options,
                                 const char *arch, char **image, size_t *image_size,
                                 char *msg)
{
    return compile_text(path, source, options, arch, image, image_size, NULL, NULL, msg);
}

/* Compiles the file at `path` for what the compile leaves beside the CUBIN (its log, its
 * PTX: compile_text's `log` and `ptx`); the CUBIN itself is dropped. */
static ladder_status compile_file_aside(const char *path, const char *options,
                                        const char *arch, char **log, char **ptx, char *msg)
{
    char *source = NULL, *image = NULL;
    size_t image_size = 0;
    ladder_status status = text_file_read(path, &source, NULL, msg);
    if (status == LADDER_OK)
        status = compile_text(path, source, options, arch, &image, &image_size, log, ptx,
                              msg);
    free(image);
    free(source);
    return status;
}

ladder_status nvrtc_ptxas_report(const char *path, const char *options, const char *arch,
                                 char **report, char *msg)
{
    *report = NULL;
    static const char ask[] = " --ptxas-options=-v";
    if (!options)
        options = "";
    char *verbose = malloc(strlen(options) + sizeof ask);
    if (!verbose)
        return ladder_fail(msg, LADDER_ERROR, "malloc: out of memory compiling %s", path);
    snprintf(verbose, strlen(options) + sizeof ask, "%s%s", options, ask);
    ladder_status status = compile_file_aside(path, verbose, arch, report, NULL, msg);
    if (status == LADDER_OK && !*report)
        status = ladder_fail(msg, LADDER_ERROR, "nvrtc: %s: ptxas gave no report", path);
    free(verbose);
    return status;
}

ladder_status nvrtc_ptx_file(const char *path, const char *options, const char *arch,
                             char **ptx, char *msg)
{
    *ptx = NULL;
    ladder_status status = compile_file_aside(path, options, arch, NULL, ptx, msg);
    if (status == LADDER_OK && !*ptx)
        status = ladder_fail(msg, LADDER_ERROR, "nvrtc: %s: NVRTC gave no PTX", path);
    return status;
}

void nvrtc_version_string(char *out, size_t size)
{
    int major = 0, minor = 0;
    if (nvrtcVersion(&major, &minor) == NVRTC_SUCCESS)
        snprintf(out, size, "%d.%d", major, minor);
    else
        snprintf(out, size, "unknown");
}
