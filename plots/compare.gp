# compare.gp: the same rungs on several devices, each as a percentage of its own reference
# (its vendor library, or its FP32 peak: the legend says which), so that a large GPU, a
# small GPU and a CPU can be read on one axis.
#
# Read from the prelude `ladder plot` writes:
#   data          table: position, "rung name", then one column per device and backend (%)
#   n_rungs, n_series
#   series_title, series_backend   arrays: the legend entry and the backend of each column
#   reference_text                 "vendor library" or "FP32 peak"
#   title_text, output_base, formats, scripts

load scripts."/style.gp"

set title title_text
set xlabel "rung"
set ylabel "percent of the device's ".reference_text."  (higher is better)"
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set xrange [-0.4:n_rungs-0.6]
set xtics scale 0 rotate by -30 left
set key outside bottom center vertical Left reverse height 1

# Series take line types 1, 2, ... in order; the backend picks the dash, so CUDA and OpenCL
# of one device are told apart at a glance.
series_dash(k) = series_backend[k] eq "opencl" ? 2 : 1

do for [fmt in formats] {
    eval terminal_command(fmt)
    set output output_base.".".fmt
    plot data using 1:(NaN):xtic(2) notitle, \
         for [k=1:n_series] data using 1:k+2 with linespoints lt k dt series_dash(k) \
             title series_title[k], \
         100 with lines lc rgb "#000000" dt 2 lw 2 title "100% = the ".reference_text
    set output
}
