/* Small checks on text that more than one command line needs. */
#ifndef LADDER_TEXT_H
#define LADDER_TEXT_H

/* 1 when `s` is one or more decimal digits and nothing else ("12", not "", "-1" or "1 "). */
int text_is_digits(const char *s);

#endif
