# accuracy.gp: a K sweep of one device and backend (one C of M x N, many K), each method's
# error against its speed (left) and against K (right), one point per K, the points of
# one method joined. Dotted lines: the unit roundoff of float32 (2^-24) and of TF32 (2^-11).
#
# Read from the prelude `ladder plot` writes:
#   data          one block per method (gnuplot's index), rows: K, GFLOPS, rel_error
#   n_rungs, n_libraries   blocks 1..n_rungs are rungs, the next n_libraries libraries
#   method_rung, method_title   arrays: the rung of each block (0: a library), its key
#   x_min, x_max, y_min, y_max, k_min, k_max
#   k_tics        the K values to label, "4 16 64 ..."
#   title_text, output_base, formats, scripts

load scripts."/style.gp"

u_fp32 = 2.0**-24
u_tf32 = 2.0**-11
error_label = "error, max |c - r| / (|A||B|)_ij  (log; lower is better)"
# The key sits right of both panels; the panels share the error axis.
set key at screen 0.755, screen 0.88 left top vertical Left reverse samplen 3 spacing 1.1 font ",11"
set logscale xy 10
set format x "%g"
set format y "%.0e"
set yrange [y_min:y_max]
set mytics 10

# A rung in its own line type; a library in a grey, dashed, with a point of its own.
library_point(j) = j == 1 ? 2 : j == 2 ? 3 : 1

do for [fmt in formats] {
    eval terminal_command(fmt)
    set output output_base.".".fmt
    set multiplot title title_text
    # Left: error against speed.
    set lmargin at screen 0.07
    set rmargin at screen 0.38
    set tmargin at screen 0.88
    set bmargin at screen 0.12
    set xrange [x_min:x_max]
    set xlabel "GFLOPS  (log scale; higher is better)"
    set ylabel error_label
    plot u_fp32 with lines lc rgb peak_color dt 3 lw 1.5 title "u of float32, 2^-24", \
         u_tf32 with lines lc rgb "#555555" dt 3 lw 1.5 title "u of TF32, 2^-11", \
         for [i=1:n_rungs] data index i-1 using 2:3 with linespoints \
             lt rung_type(method_rung[i]) title method_title[i], \
         for [j=1:n_libraries] data index n_rungs+j-1 using 2:3 with linespoints \
             lc rgb library_color(j) dt library_dash(j) lw 2.5 pt library_point(j) \
             title method_title[n_rungs+j]
    # Right: the same errors against K (no second key).
    set lmargin at screen 0.43
    set rmargin at screen 0.74
    set logscale x 2
    set xrange [k_min / 1.5:k_max * 1.5]
    set xtics ()
    do for [k in k_tics] {
        kk = k + 0
        k_label = kk >= 1024 ? sprintf("%dk", kk / 1024) : k
        set xtics add (k_label kk)
    }
    set xlabel "K, the length of each sum  (log scale)"
    unset ylabel
    unset key
    plot u_fp32 with lines lc rgb peak_color dt 3 lw 1.5, \
         u_tf32 with lines lc rgb "#555555" dt 3 lw 1.5, \
         for [i=1:n_rungs] data index i-1 using 1:3 with linespoints \
             lt rung_type(method_rung[i]), \
         for [j=1:n_libraries] data index n_rungs+j-1 using 1:3 with linespoints \
             lc rgb library_color(j) dt library_dash(j) lw 2.5 pt library_point(j)
    unset multiplot
    set key
    set logscale x 10
    set xtics autofreq
    set format x "%g"
    set ylabel error_label
}
