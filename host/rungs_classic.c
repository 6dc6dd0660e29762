/* Registry entries for rungs 4-10 (the rest of the classic tutorial). */
#include "registry.h"

const rung rungs_classic[] = {
    {.number = 0}, /* placeholder until rungs 4-10 land */
};
const int rungs_classic_count = 0;
