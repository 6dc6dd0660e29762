#include "params/tuned_params.h"

#include <stdio.h>
#include <string.h>

#include "base/kernel_path.h"
#include "params/size_class.h"
#include "base/source_hash.h"

static int for_device(const tuning_entry *e, const device_info *dev)
{
    return strcmp(e->backend, dev->backend) == 0 && strcmp(e->device, dev->name) == 0;
}

int tuned_params_count(const tuning_db *db, const device_info *dev)
{
    int n = 0;
    for (int i = 0; i < db->count; i++)
        n += for_device(&db->entries[i], dev);
    return n;
}

/* Says why an entry is not used, once per entry; returns 0 (use the defaults). */
static int note(tuning_entry *e, const char *who, const char *why)
{
    if (!e->noted)
        fprintf(stderr, "%s: note: tuned parameters for rung %d (%s sizes) %s\n", who,
                e->rung, size_class_name(e->cls), why);
    e->noted = 1;
    return 0;
}

/* Whether entry `e` is for this device, rung, precision and size class (of any pair). */
static int same_rung(const tuning_entry *e, const device_info *dev, const char *name,
                     const rung *r, gemm_precision p, size_class cls)
{
    /* Never parameters of another precision: a double tile takes twice the memory. */
    return strcmp(e->backend, dev->backend) == 0 && strcmp(e->device, name) == 0 &&
           e->rung == r->number && e->precision == p && e->cls == cls;
}

/* ... and of the case's transpose pair: the entry's key. */
static int same_key(const tuning_entry *e, const device_info *dev, const char *name,
                    const rung *r, const gemm_case *kc, size_class cls)
{
    return same_rung(e, dev, name, r, kc->precision, cls) && e->trans_a == kc->trans_a &&
           e->trans_b == kc->trans_b;
}

/* No entry of the row's own pair: if the rung takes the case and has an entry of another
 * pair, says once per entry that the defaults run instead (tuned_params.h says why they,
 * and not that entry's parameters, are the fallback). Returns 0. */
static int note_other_pair(tuning_db *db, const rung *r, const device_info *dev,
                           const char *name, const gemm_case *kc, size_class cls,
                           const char *who)
{
    char msg[LADDER_MSG], mine[3], theirs[3], pairs[32] = "";
    if (rung_check_case(r, kc, msg) != LADDER_OK)
        return 0; /* the row is unsupported anyway */
    int fresh = 0;
    for (int i = 0; i < db->count; i++) {
        tuning_entry *e = &db->entries[i];
        if (!same_rung(e, dev, name, r, kc->precision, cls))
            continue;
        gemm_trans_name(e->trans_a, e->trans_b, theirs);
        if (!strstr(pairs, theirs))
            snprintf(pairs + strlen(pairs), sizeof pairs - strlen(pairs), "%s%s",
                     pairs[0] ? ", " : "", theirs);
        fresh += !e->noted_pair;
        e->noted_pair = 1;
    }
    if (fresh)
        fprintf(stderr, "%s: note: rung %d's tuned parameters for %s sizes are for %s only: "
                        "rows of other transpose pairs (here %s) use the defaults (ladder "
                        "tune --trans %s would tune them)\n", who, r->number,
                size_class_name(cls), pairs, gemm_trans_name(kc->trans_a, kc->trans_b, mine),
                mine);
    return 0;
}

int tuned_params_find(tuning_db *db, const rung *r, const device_info *dev,
                      const gemm_case *kc, const gemm_size *s, int *values, const char *who)
{
    if (!db || r->kind != RUNG_KERNEL || r->nparams == 0)
        return 0;
    /* The device's name as the database stores it (tabs would have split the field). */
    char name[sizeof dev->name];
    tuning_field(name, sizeof name, dev->name);
    size_class cls = size_class_of(s);
    int any = 0;
    for (int i = 0; i < db->count && !any; i++)
        any = same_key(&db->entries[i], dev, name, r, kc, cls);
    if (!any)
        return note_other_pair(db, r, dev, name, kc, cls, who);
    /* The newest entry measured with the kernel file as it is now; else say it is stale. */
    char path[1024], msg[LADDER_MSG];
    kernel_fingerprint fp;
    kernel_path(dev->backend, r->id, path, sizeof path);
    if (kernel_fingerprint_file(path, &fp, msg) != LADDER_OK)
        return 0; /* no kernel file: the run reports that when it compiles */
    tuning_entry *stale = NULL, *e = NULL;
    for (int i = db->count - 1; i >= 0 && !e; i--) {
        tuning_entry *c = &db->entries[i];
        if (!same_key(c, dev, name, r, kc, cls))
            continue;
        if (kernel_fingerprint_matches(&fp, c->kernel_fnv1a))
            e = c;
        else if (!stale)
            stale = c;
    }
    char why[LADDER_MSG + 128];
    if (!e) {
        if (!stale)
            return 0;
        const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        snprintf(why, sizeof why, "were measured with another version of %s: using the "
                 "defaults", file);
        return note(stale, who, why);
    }
    int tuned[RUNG_MAX_PARAMS] = {0};
    if (rung_params_parse(r, e->params, tuned, msg) != LADDER_OK ||
        rung_check_params(r, tuned, msg) != LADDER_OK ||
        rung_check_device(r, tuned, dev, kc->precision, msg) != LADDER_OK) {
        snprintf(why, sizeof why, "cannot be used (%s): using the defaults", msg);
        return note(e, who, why);
    }
    if (rung_check_size(r, tuned, s, msg) != LADDER_OK) {
        snprintf(why, sizeof why, "do not fit %ldx%ldx%ld (%s): using the defaults there",
                 s->M, s->N, s->K, msg);
        return note(e, who, why);
    }
    memcpy(values, tuned, sizeof tuned);
    return 1;
}
