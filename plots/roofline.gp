# roofline.gp: every measured size and shape of one device and backend, GFLOPS against
# arithmetic intensity, under the device's measured ceilings: the read bandwidth's slope
# and the FP32 FMA ceiling's flat roof (and the nominal FP32 peak, dotted, when known).
#
# Read from the prelude `ladder plot` writes:
#   data          table: flops per byte, GFLOPS, series number, M, N, K (one row a point)
#   n_rungs, n_libraries   series 1..n_rungs are rungs, the next n_libraries libraries
#   series_rung, series_title   arrays: the rung of each series (0: a library), its key
#   fma, bw, peak             GFLOPS, GB/s, GFLOPS (peak 0: unknown, not drawn)
#   fma_title, bw_title, peak_title
#   x_min, x_max, y_min, y_max
#   title_text, output_base, formats, scripts

load scripts."/style.gp"

set title title_text
set xlabel "arithmetic intensity: flops per byte, 2MNK / 4 (MK + KN + MN)  (A, B, C moved once; log scale)"
set ylabel "GFLOPS  (log scale; higher is better)"
set logscale xy 10
set format x "%g"
set format y "%g"
set xrange [x_min:x_max]
set yrange [y_min:y_max]
set mxtics 10
set mytics 10
# Beside the chart, so that no point is hidden; short entries keep the chart wide.
set key outside right top vertical Left reverse samplen 2 spacing 1.0 font ",11"

ridge = 1.0 * fma / bw     # the prelude may write both as whole numbers
slope(x) = x <= ridge ? bw * x : NaN
roof(x) = x >= ridge ? fma : NaN
series(i) = ($3 == i ? $2 : NaN)
set samples 2000
# Above the roof nothing can be: the ridge's label goes there.
set label 1 sprintf("ridge: %.3g flops/byte", ridge) at ridge, fma * 1.6 center front \
    tc rgb peak_color font ",11"

do for [fmt in formats] {
    eval terminal_command(fmt)
    set output output_base.".".fmt
    plot slope(x) with lines lc rgb peak_color lw 3 title bw_title, \
         roof(x) with lines lc rgb peak_color lw 3 dt 1 title fma_title, \
         (peak > 0 ? peak : NaN) with lines lc rgb peak_color lw 1.5 dt 3 title peak_title, \
         for [i=1:n_rungs] data using 1:(series(i)) with points lt rung_type(series_rung[i]) \
             ps 0.8 title series_title[i], \
         for [j=1:n_libraries] data using 1:(series(n_rungs + j)) with points \
             lc rgb library_color(j) pt 2 ps 1.3 lw 2 title series_title[n_rungs + j]
    set output
}
