/* Turning OpenCL error codes into words.
 *
 * OpenCL calls return a bare negative number (-5, -11, ...). A student staring at "-5" has to
 * look it up; "CL_OUT_OF_RESOURCES" says what went wrong. Every failure message in the OpenCL
 * backend goes through ocl_fail so it names the call, the code's name and the number.
 */
#ifndef LADDER_OPENCL_ERRORS_H
#define LADDER_OPENCL_ERRORS_H

#include <CL/cl.h>

#include "base/status.h"

/* "CL_OUT_OF_RESOURCES" for -5, and so on; "unknown OpenCL error" for codes not listed. */
const char *ocl_error_name(cl_int err);

/* Writes "<what the caller formatted>: CL_NAME (code)" into msg and returns LADDER_ERROR. */
ladder_status ocl_fail(char *msg, cl_int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
