/* The search space of `ladder tune`: every combination of a rung's candidate values
 * (rung_param.choices in the registry) that the rung, the device and the tuning sizes
 * accept.
 *
 * Combinations are filtered before anything is compiled, and each filter counts what it
 * removed, so the user sees why a space of thousands shrinks to a few hundred:
 *   invalid  rung_check_params: out of range, or a combination validate() refuses
 *   device   rung_check_device: more local memory or work-items than the device has
 *   sizes    rung_check_size: the tiles do not divide every tuning size
 * The points that remain keep a fixed order (the first parameter varies slowest), which is
 * the order of the exhaustive search.
 */
#ifndef LADDER_TUNE_SPACE_H
#define LADDER_TUNE_SPACE_H

#include "rungs/registry.h"
#include "params/param_override.h"
#include "base/sizes.h"

/* More combinations than this is a search nobody can finish: pin parameters instead. */
#define TUNE_MAX_COMBINATIONS (1L << 22)

typedef struct {
    const rung *r;
    int nparams;
    int nchoices[RUNG_MAX_PARAMS];
    int choices[RUNG_MAX_PARAMS][RUNG_MAX_CHOICES];
    long ncombinations;    /* the product of nchoices */
    int npoints;           /* the combinations that passed every filter */
    long *combination;     /* [npoints]: the combination number of each point */
    int *point_of;         /* [ncombinations]: the point number, or -1 when filtered out */
    long skipped_invalid, skipped_device, skipped_size;
    /* The first reason each filter gave, for the summary line. */
    char why_invalid[LADDER_MSG], why_device[LADDER_MSG], why_size[LADDER_MSG];
} tune_space;

/* Builds the space of rung `r` on `dev` (NULL: no device filter; else in precision `p`,
 * whose elements take the local memory) for every size in
 * `sizes`. `pinned` parameters (--param NAME=VALUE) get that one value instead of their
 * candidate list. LADDER_ERROR (with the message) for a pinned name the rung does not
 * have or a space too large to search; an empty space is not an error here (npoints 0). */
ladder_status tune_space_build(tune_space *sp, const rung *r, const param_override *pinned,
                               int npinned, const device_info *dev, gemm_precision p,
                               const gemm_size *sizes, int nsizes, char *msg);
void tune_space_free(tune_space *sp);

/* The parameter values of point `point`. */
void tune_space_values(const tune_space *sp, int point, int *values);

/* The point with exactly these values, or -1 (not made of the candidates, or filtered). */
int tune_space_find(const tune_space *sp, const int *values);

/* The neighbour of `point` one step up (dir +1) or down (dir -1) in parameter p's list,
 * the other parameters unchanged; filtered combinations are stepped over. -1 if none. */
int tune_space_step(const tune_space *sp, int point, int p, int dir);

#endif
