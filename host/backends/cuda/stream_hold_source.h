/* The source of the timer's hold kernel (stream_hold.h), apart so that the compile-only
 * test (tests/test_nvrtc_compile.c), which has no CUDA driver, can compile it too. */
#ifndef LADDER_STREAM_HOLD_SOURCE_H
#define LADDER_STREAM_HOLD_SOURCE_H

/* %globaltimer counts nanoseconds on every GPU since Kepler; one thread reads it until the
 * time has passed. */
static const char stream_hold_source[] =
    "extern \"C\" __global__ void hold_stream(unsigned long long ns)\n"
    "{\n"
    "    unsigned long long t0, t;\n"
    "    asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t0));\n"
    "    do\n"
    "        asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n"
    "    while (t - t0 < ns);\n"
    "}\n";

#endif
