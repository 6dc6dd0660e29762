# bars.gp: every rung of one device at one size, one bar per backend side by side, the
# vendor libraries as horizontal lines, and on each bar the fraction of its backend's
# vendor library that it reached. The fraction-of-peak chart (DEVICE-peak-SIZE) is drawn
# by this script too: its bars, lines and labels are percentages of the FP32 peak.
#
# Read from the prelude `ladder plot` writes:
#   data          table: position, "rung name", then per backend: GFLOPS (or % of peak),
#                 label height, label
#   n_rungs, n_backends
#   backend_name, backend_title     arrays: "cuda", "CUDA (on each bar: % of cuBLAS)"
#   n_libraries, library_gflops, library_title   the horizontal reference lines
#   library_off_scale   array: 1 for a library far above every bar, drawn at the top
#   y_top         where the axis ends (a library off the scale, or the peak chart's 100%);
#                 0: automatic
#   title_text, y_label_text, output_base, formats, scripts

load scripts."/style.gp"

set title title_text
set xlabel "rung"
set ylabel y_label_text
if (y_top > 0) {
    # A library far above the bars (a CPU BLAS beside PoCL) would flatten them: the axis
    # ends above the bars, and that library's line runs along its top, its key entry
    # saying it is above the axis.
    set yrange [0:y_top]
} else {
    set yrange [0:*]
}
set offsets 0, 0, graph 0.10, 0
set xrange [-0.6:n_rungs-0.4]
set xtics scale 0 rotate by -30 left
set grid noxtics
# The key goes under the axis: outside the data, never over it.
set key outside bottom center horizontal Left reverse width 2 height 1

set style fill solid 0.85 border -1
bar_width = 0.8 / n_backends
set boxwidth bar_width absolute
bar_x(k) = column(1) + (k - (n_backends + 1) / 2.0) * bar_width
value_col(k) = 3 * k
label_y_col(k) = 3 * k + 1
label_col(k) = 3 * k + 2

do for [fmt in formats] {
    eval terminal_command(fmt)
    set output output_base.".".fmt
    plot data using 1:(0):xtic(2) with points lc rgb "#ffffff" pt 0 notitle, \
         for [k=1:n_backends] data using (bar_x(k)):value_col(k) with boxes \
             lc rgb backend_color(backend_name[k]) title backend_title[k], \
         for [k=1:n_backends] data using (bar_x(k)):label_y_col(k):label_col(k) with labels \
             offset 0, 0.7 font ",11" notitle, \
         for [i=1:n_libraries] (library_off_scale[i] ? y_top : library_gflops[i]) with lines \
             lc rgb library_color(i) dt library_dash(i) lw (library_off_scale[i] ? 4 : 2.5) \
             title library_title[i]
    set output
}
