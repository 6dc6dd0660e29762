/* FP32 peak of a device, where it can be known rather than guessed. */
#ifndef LADDER_DEVICE_PEAK_H
#define LADDER_DEVICE_PEAK_H

/* FP32 lanes per streaming multiprocessor for an NVIDIA compute capability, or 0 if this
 * table does not know it (then the peak is left unknown, never guessed). */
int nvidia_fp32_lanes_per_sm(int cc_major, int cc_minor);

/* SMs x lanes x 2 (an FMA is two flops) x clock, in GFLOPS; 0 if unknown. */
double nvidia_fp32_peak_gflops(int cc_major, int cc_minor, int sms, int clock_mhz);

#endif
