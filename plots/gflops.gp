# gflops.gp: GFLOPS against matrix size, one line per rung (the classic tutorial's chart),
# for one device and backend, with the vendor libraries dashed and the FP32 peak as ceiling.
#
# Read from the prelude `ladder plot` writes:
#   data          table: size, one column per rung, one per library, then the peak
#   n_rungs, n_libraries, has_peak   how many columns of each kind the table has
#   log_y         1: a reference line is far above every rung, use a log GFLOPS axis
#   rung_number   array: the rung each rung column holds (it picks the colour)
#   size_list     the measured sizes, "128 256 ..."
#   title_text, output_base, formats, scripts

load scripts."/style.gp"

set title title_text
set xlabel "matrix size  (M = N = K; log scale)"
set ylabel "GFLOPS  (2MNK flops / median time; higher is better)"
set logscale x 2
set xtics ()
do for [s in size_list] { set xtics add (s s+0) }
set mxtics default
set autoscale xfix   # end the axis at the smallest and largest size, not at the next tic
set offsets graph 0.03, graph 0.03, graph 0.05, 0
if (log_y) {
    # ladder plot asks for a log axis when a reference line is far above every rung.
    set logscale y 10
    set ylabel "GFLOPS  (2MNK flops / median time; log scale; higher is better)"
    set offsets graph 0.03, graph 0.03, 0, 0
} else {
    set yrange [0:*]
}

first_library = 1 + n_rungs + 1
peak_column = 1 + n_rungs + n_libraries + 1

do for [fmt in formats] {
    eval terminal_command(fmt)
    set output output_base.".".fmt
    plot for [i=1:n_rungs] data using 1:i+1 with linespoints lt rung_type(rung_number[i]) \
             title columnheader(i+1), \
         for [j=1:n_libraries] data using 1:first_library+j-1 with lines \
             lc rgb library_color(j) dt library_dash(j) lw 2.5 title columnheader(first_library+j-1), \
         for [p=1:has_peak] data using 1:peak_column with lines \
             lc rgb peak_color dt 3 lw 3 title columnheader(peak_column)
    set output
}
