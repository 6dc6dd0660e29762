/* Four neighbouring elements of a matrix column as one real4: the unit in which rungs 15,
 * 19 and 20 read a matrix from global memory. The includer includes real.h first.
 */
#ifndef LADDER_LOAD4_H
#define LADDER_LOAD4_H

/* Elements i..i+3 of column j of the column-major matrix X (leading dimension ld). Zeros
 * where the column does not count (`col_ok` false: past the matrix, or past the slice of
 * K) and at i + t >= `end` (past the matrix, or past the slice). `vec`: one real4 load
 * where all four exist; it must start aligned (16 bytes in float, 32 in double), which
 * holds when ld is a multiple of 4, as i is. Otherwise the elements come one at a time. */
real4 load4(const __global real *X, const int ld, const int i, const int j, const int end,
            const int col_ok, const int vec)
{
    const __global real *src = X + i + (size_t)j * ld;
    if (!col_ok)
        return (real4)(0);
    if (vec && i + 3 < end)
        return *(const __global real4 *)src;
    return (real4)(i < end ? src[0] : 0, i + 1 < end ? src[1] : 0,
                   i + 2 < end ? src[2] : 0, i + 3 < end ? src[3] : 0);
}

#endif
