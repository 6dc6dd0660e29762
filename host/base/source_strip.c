#include "base/source_strip.h"

#include <stdlib.h>
#include <string.h>

/* The stripper reads the text once, in one of these states. */
typedef enum {
    IN_CODE,
    IN_STRING,        /* "..." */
    IN_CHAR,          /* '...' */
    IN_BLOCK_COMMENT, /* slash-star ... star-slash */
    IN_LINE_COMMENT,  /* slash-slash to the end of the line */
} strip_state;

/* Ends the line being written at out[*len]: drops its trailing blanks, and the whole line
 * when nothing else is left on it. `line_start` is where the line began in out. */
static void end_line(char *out, size_t *len, size_t line_start)
{
    while (*len > line_start && (out[*len - 1] == ' ' || out[*len - 1] == '\t'))
        (*len)--;
    if (*len > line_start)
        out[(*len)++] = '\n';
}

char *source_strip_comments(const char *text)
{
    /* The output is never longer than the input plus a final newline. */
    char *out = malloc(strlen(text) + 2);
    if (!out)
        return NULL;
    size_t len = 0, line_start = 0;
    strip_state state = IN_CODE;
    int after_comment = 0; /* a block comment just ended: blanks after it are not doubled */
    for (const char *p = text; *p; p++) {
        const char c = *p;
        if (after_comment && (c == ' ' || c == '\t') && len > line_start &&
            (out[len - 1] == ' ' || out[len - 1] == '\t'))
            continue;
        after_comment = 0;
        if (c == '\n') {
            if (state == IN_LINE_COMMENT)
                state = IN_CODE;
            if (state != IN_BLOCK_COMMENT) {
                end_line(out, &len, line_start);
                line_start = len;
            }
            continue; /* a newline inside a block comment goes with the comment */
        }
        switch (state) {
        case IN_CODE:
            if (c == '/' && p[1] == '*') {
                state = IN_BLOCK_COMMENT;
                p++;
                /* As the compiler reads it: the comment separates what is on either side. */
                if (len > line_start && out[len - 1] != ' ' && out[len - 1] != '\t')
                    out[len++] = ' ';
                continue;
            }
            if (c == '/' && p[1] == '/') {
                state = IN_LINE_COMMENT;
                continue;
            }
            if (c == '"')
                state = IN_STRING;
            else if (c == '\'')
                state = IN_CHAR;
            out[len++] = c;
            break;
        case IN_STRING:
        case IN_CHAR:
            out[len++] = c;
            if (c == '\\' && p[1] && p[1] != '\n')
                out[len++] = *++p; /* an escaped quote does not end the literal */
            else if (c == (state == IN_STRING ? '"' : '\''))
                state = IN_CODE;
            break;
        case IN_BLOCK_COMMENT:
            if (c == '*' && p[1] == '/') {
                state = IN_CODE;
                after_comment = 1;
                p++;
            }
            break;
        case IN_LINE_COMMENT:
            break;
        }
    }
    end_line(out, &len, line_start);
    out[len] = '\0';
    return out;
}
