/* A user's --param [RUNG:]NAME=VALUE: the highest-priority source of a rung's parameters. */
#ifndef LADDER_PARAM_OVERRIDE_H
#define LADDER_PARAM_OVERRIDE_H

/* --param [RUNG:]NAME=VALUE; rung 0 means every selected rung that has NAME. */
typedef struct {
    int rung;
    char name[32];
    int value;
} param_override;

#endif
