/* FP32 lanes per SM come from NVIDIA's CUDA C Programming Guide (arithmetic instruction
 * throughput table). Unknown generations return 0 so that no peak is ever invented. */
#include "backends/device_peak.h"

int nvidia_fp32_lanes_per_sm(int cc_major, int cc_minor)
{
    switch (cc_major) {
    case 3: return 192;                       /* Kepler */
    case 5: return 128;                       /* Maxwell */
    case 6: return cc_minor == 0 ? 64 : 128;  /* Pascal: GP100 has 64 */
    case 7: return 64;                        /* Volta, Turing */
    case 8: return cc_minor == 0 ? 64 : 128;  /* Ampere A100 64; GA10x and Ada 128 */
    case 9: return 128;                       /* Hopper */
    case 10: case 12: return 128;             /* Blackwell */
    default: return 0;
    }
}

double nvidia_fp32_peak_gflops(int cc_major, int cc_minor, int sms, int clock_mhz)
{
    int lanes = nvidia_fp32_lanes_per_sm(cc_major, cc_minor);
    if (lanes == 0 || sms <= 0 || clock_mhz <= 0)
        return 0.0;
    return (double)sms * lanes * 2.0 * clock_mhz / 1000.0;
}
