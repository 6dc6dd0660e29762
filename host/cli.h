/* The `ladder` subcommands. Each returns the process exit status:
 * 0 success, 1 a run had failures (FAILED verification or errors), 2 bad usage,
 * 130 interrupted. */
#ifndef LADDER_CLI_H
#define LADDER_CLI_H

#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

int cmd_devices(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_table(int argc, char **argv);

/* Option helper: if argv[*i] is `--name VALUE` or `--name=VALUE`, stores VALUE, advances
 * *i past it and returns 1; returns -1 (with a message printed) when the value is
 * missing; 0 when argv[*i] is another option. */
int cli_option(int argc, char **argv, int *i, const char *name, const char **value);

/* Prints "ladder <cmd>: <message>" to stderr and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
