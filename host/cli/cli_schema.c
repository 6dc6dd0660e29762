/* ladder schema: the columns of a result file, from the one table the writer and the
 * reader use (core/results.c). README.md's "Result files" table is this command's output,
 * and tests/cli/schema.sh fails when the two differ. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/results.h"

static void schema_help(void)
{
    printf("usage: ladder schema [--header]\n"
           "\n"
           "Prints the columns of a result file as a Markdown table (name and meaning), the\n"
           "table README.md shows. Columns described together share one row.\n"
           "  --header   print the CSV header line instead\n");
}

/* Markdown text of a table cell: a '|' would end the cell, so it is escaped. */
static void print_cell(const char *text)
{
    for (; *text; text++) {
        if (*text == '|')
            putchar('\\');
        putchar(*text);
    }
}

static void print_table(void)
{
    int n;
    const result_column *c = results_columns(&n);
    printf("| column | meaning |\n|---|---|\n");
    for (int i = 0; i < n; i++) {
        /* Columns without a meaning of their own join the row of the one above. */
        int last = i;
        while (last + 1 < n && !c[last + 1].meaning)
            last++;
        printf("| ");
        for (int k = i; k <= last; k++)
            printf("%s`%s`", k > i ? ", " : "", c[k].name);
        printf(" | ");
        print_cell(c[i].meaning ? c[i].meaning : "");
        printf(" |\n");
        i = last;
    }
}

int cmd_schema(int argc, char **argv)
{
    int header = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            schema_help();
            return 0;
        }
        if (strcmp(argv[i], "--header") == 0) {
            header = 1;
            continue;
        }
        return cli_usage_error("schema", "unknown option '%s' (see ladder schema --help)",
                               argv[i]);
    }
    if (header)
        printf("%s\n", results_header());
    else
        print_table();
    return 0;
}
