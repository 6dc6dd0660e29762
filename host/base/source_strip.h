/* A kernel source without its comments, for `ladder diff`: what a rung changes in the code,
 * not in the prose around it. */
#ifndef LADDER_SOURCE_STRIP_H
#define LADDER_SOURCE_STRIP_H

/* A copy of the C (OpenCL C, CUDA C++) source `text` with its comments removed and its
 * blank lines normalised away: block and line comments go (a block comment between two
 * pieces of code becomes one space, as the compiler reads it), comment markers inside
 * string and character literals stay, trailing spaces and tabs go, and so does every line
 * left empty. Lines of code keep their indentation. Malloc'd (free it); NULL when out of
 * memory. */
char *source_strip_comments(const char *text);

#endif
