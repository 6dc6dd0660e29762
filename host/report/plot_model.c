/* The plot model's index (devices and groups) and the questions figures ask of it.
 *
 * Result files hold at most a few thousand rows, so every question is a plain scan of the
 * rows: slower than a hash table, but a student can read it at a glance.
 */
#include "report/plot_model.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plot_slug(const char *name, char *slug, size_t size)
{
    size_t used = 0;
    int dash = 0; /* a '-' is owed before the next letter or digit */
    for (const char *p = name; *p && used + 2 < size; p++) {
        unsigned char c = (unsigned char)*p;
        if (isalnum(c)) {
            if (dash && used > 0)
                slug[used++] = '-';
            slug[used++] = (char)tolower(c);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    slug[used] = '\0';
    if (used == 0)
        snprintf(slug, size, "device");
}

static int find_device(const plot_model *m, const char *name)
{
    for (int d = 0; d < m->ndevices; d++)
        if (strcmp(m->devices[d].name, name) == 0)
            return d;
    return -1;
}

static int slug_taken(const plot_model *m, const char *slug)
{
    for (int d = 0; d < m->ndevices; d++)
        if (strcmp(m->devices[d].slug, slug) == 0)
            return 1;
    return 0;
}

static ladder_status add_device(plot_model *m, const result_row *r, char *msg)
{
    plot_device *grown = realloc(m->devices, (size_t)(m->ndevices + 1) * sizeof *grown);
    if (!grown)
        return ladder_fail(msg, LADDER_ERROR, "out of memory indexing devices");
    m->devices = grown;
    plot_device *d = &m->devices[m->ndevices];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", r->device);
    snprintf(d->host, sizeof d->host, "%s", r->host);
    /* Two names can make one slug ("GPU 0", "gpu-0"); number the later one so that no
     * figure overwrites another. */
    char base[80];
    plot_slug(r->device, base, sizeof base);
    snprintf(d->slug, sizeof d->slug, "%s", base);
    for (int n = 2; slug_taken(m, d->slug); n++)
        snprintf(d->slug, sizeof d->slug, "%s-%d", base, n);
    m->ndevices++;
    return LADDER_OK;
}

static ladder_status add_group(plot_model *m, int device, const char *backend, char *msg)
{
    for (int g = 0; g < m->ngroups; g++)
        if (m->groups[g].device == device && strcmp(m->groups[g].backend, backend) == 0)
            return LADDER_OK;
    plot_group *grown = realloc(m->groups, (size_t)(m->ngroups + 1) * sizeof *grown);
    if (!grown)
        return ladder_fail(msg, LADDER_ERROR, "out of memory indexing groups");
    m->groups = grown;
    m->groups[m->ngroups].device = device;
    snprintf(m->groups[m->ngroups].backend, sizeof m->groups[m->ngroups].backend, "%s", backend);
    m->ngroups++;
    return LADDER_OK;
}

static int compare_groups(const void *a, const void *b)
{
    const plot_group *x = a, *y = b;
    if (x->device != y->device)
        return x->device < y->device ? -1 : 1;
    return strcmp(x->backend, y->backend);
}

ladder_status plot_model_index(plot_model *m, char *msg)
{
    /* Only rungs make a device worth drawing; a device with vendor-library rows alone
     * (the host CPU's BLAS) appears as a reference line in other devices' figures. */
    for (int i = 0; i < m->nrows; i++) {
        const result_row *r = &m->rows[i];
        if (r->rung <= 0)
            continue;
        int d = find_device(m, r->device);
        if (d < 0) {
            if (add_device(m, r, msg) != LADDER_OK)
                return LADDER_ERROR;
            d = m->ndevices - 1;
        }
        if (add_group(m, d, r->backend, msg) != LADDER_OK)
            return LADDER_ERROR;
    }
    if (m->ngroups > 1)
        qsort(m->groups, (size_t)m->ngroups, sizeof *m->groups, compare_groups);
    return LADDER_OK;
}

double plot_gflops(const plot_model *m, const char *device, const char *backend, int rung,
                   const char *baseline, long n)
{
    for (int i = 0; i < m->nrows; i++) {
        const result_row *r = &m->rows[i];
        if (r->rung == rung && r->M == n && strcmp(r->device, device) == 0 &&
            strcmp(r->backend, backend) == 0 &&
            (rung > 0 || strcmp(r->rung_name, baseline) == 0))
            return r->gflops;
    }
    return PLOT_MISSING;
}

static int compare_longs(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorts and removes repeats; returns the new count. */
static int unique_longs(long *v, int n)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, compare_longs);
    int kept = 1;
    for (int i = 1; i < n; i++)
        if (v[i] != v[kept - 1])
            v[kept++] = v[i];
    return kept;
}

int plot_model_sizes(const plot_model *m, long **sizes)
{
    long *v = malloc((size_t)(m->nrows + 1) * sizeof *v);
    int n = 0;
    *sizes = v;
    if (!v)
        return 0;
    for (int i = 0; i < m->nrows; i++)
        if (m->rows[i].rung > 0)
            v[n++] = m->rows[i].M;
    return unique_longs(v, n);
}

static int in_group(const plot_model *m, int group, const result_row *r)
{
    const plot_group *g = &m->groups[group];
    return r->rung > 0 && strcmp(r->backend, g->backend) == 0 &&
           strcmp(r->device, m->devices[g->device].name) == 0;
}

int plot_group_sizes(const plot_model *m, int group, long **sizes)
{
    long *v = malloc((size_t)(m->nrows + 1) * sizeof *v);
    int n = 0;
    if (!v) {
        *sizes = NULL;
        return 0;
    }
    for (int i = 0; i < m->nrows; i++)
        if (in_group(m, group, &m->rows[i]))
            v[n++] = m->rows[i].M;
    *sizes = v;
    return unique_longs(v, n);
}

int plot_group_rungs(const plot_model *m, int group, int **rungs)
{
    int *v = malloc((size_t)(m->nrows + 1) * sizeof *v);
    int n = 0;
    if (!v) {
        *rungs = NULL;
        return 0;
    }
    for (int i = 0; i < m->nrows; i++)
        if (in_group(m, group, &m->rows[i]))
            v[n++] = m->rows[i].rung;
    qsort(v, (size_t)n, sizeof *v, compare_ints);
    int kept = n ? 1 : 0;
    for (int i = 1; i < n; i++)
        if (v[i] != v[kept - 1])
            v[kept++] = v[i];
    *rungs = v;
    return kept;
}

int plot_device_rungs(const plot_model *m, int device, int **out)
{
    int *all = malloc((size_t)(m->nrows + 1) * sizeof *all);
    int n = 0;
    *out = all;
    if (!all)
        return 0;
    for (int g = 0; g < m->ngroups; g++) {
        if (m->groups[g].device != device)
            continue;
        int *rungs = NULL;
        int k = plot_group_rungs(m, g, &rungs);
        for (int i = 0; i < k; i++) {
            int j = 0;
            while (j < n && all[j] < rungs[i])
                j++;
            if (j < n && all[j] == rungs[i])
                continue;
            memmove(all + j + 1, all + j, (size_t)(n - j) * sizeof *all);
            all[j] = rungs[i];
            n++;
        }
        free(rungs);
    }
    return n;
}

const char *plot_rung_name(const plot_model *m, int rung)
{
    for (int i = 0; i < m->nrows; i++)
        if (m->rows[i].rung == rung)
            return m->rows[i].rung_name;
    return "?";
}

/* Does this library row serve as a reference for the device? */
static int is_baseline_of(const plot_device *d, const result_row *r)
{
    if (r->rung != 0)
        return 0;
    if (strcmp(r->device, d->name) == 0)
        return 1;
    /* The host's CPU BLAS is the reference for an OpenCL device that is that same CPU. */
    return strcmp(r->backend, "cpu") == 0 && strcmp(r->host, d->host) == 0 && r->device[0] &&
           (strstr(d->name, r->device) != NULL || strstr(r->device, d->name) != NULL);
}

/* The host CPU's library last; the others by backend, so a figure's legend is stable. */
static int compare_baselines(const void *a, const void *b)
{
    const plot_baseline *x = a, *y = b;
    int xcpu = strcmp(x->backend, "cpu") == 0, ycpu = strcmp(y->backend, "cpu") == 0;
    if (xcpu != ycpu)
        return xcpu - ycpu;
    int c = strcmp(x->backend, y->backend);
    return c ? c : strcmp(x->name, y->name);
}

int plot_device_baselines(const plot_model *m, int device, plot_baseline **out)
{
    plot_baseline *v = malloc((size_t)(m->nrows + 1) * sizeof *v);
    int n = 0;
    *out = v;
    if (!v)
        return 0;
    for (int i = 0; i < m->nrows; i++) {
        const result_row *r = &m->rows[i];
        if (!is_baseline_of(&m->devices[device], r))
            continue;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = strcmp(v[j].name, r->rung_name) == 0 && strcmp(v[j].backend, r->backend) == 0 &&
                   strcmp(v[j].device, r->device) == 0;
        if (seen)
            continue;
        snprintf(v[n].name, sizeof v[n].name, "%s", r->rung_name);
        snprintf(v[n].backend, sizeof v[n].backend, "%s", r->backend);
        snprintf(v[n].device, sizeof v[n].device, "%s", r->device);
        n++;
    }
    if (n > 1)
        qsort(v, (size_t)n, sizeof *v, compare_baselines);
    return n;
}

int plot_group_reference(const plot_model *m, int group, plot_baseline *out)
{
    plot_baseline *all = NULL;
    int n = plot_device_baselines(m, m->groups[group].device, &all);
    int pick = -1;
    for (int i = 0; i < n; i++) {
        if (!plot_reference_library(all[i].name))
            continue;
        if (pick < 0)
            pick = i;
        if (strcmp(all[i].backend, m->groups[group].backend) == 0) {
            pick = i;
            break;
        }
    }
    if (pick >= 0)
        *out = all[pick];
    free(all);
    return pick >= 0 ? 0 : -1;
}

double plot_baseline_gflops(const plot_model *m, const plot_baseline *b, long n)
{
    return plot_gflops(m, b->device, b->backend, 0, b->name, n);
}

long plot_device_size(const plot_model *m, int device, long wanted)
{
    long largest = 0;
    int has_4096 = 0, has_wanted = 0;
    for (int i = 0; i < m->nrows; i++) {
        const result_row *r = &m->rows[i];
        if (r->rung <= 0 || strcmp(r->device, m->devices[device].name) != 0)
            continue;
        if (r->M > largest)
            largest = r->M;
        has_4096 |= r->M == 4096;
        has_wanted |= r->M == wanted;
    }
    if (wanted > 0)
        return has_wanted ? wanted : 0;
    return has_4096 ? 4096 : largest;
}
