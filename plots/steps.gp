# steps.gp: the step gain of one device and backend: each rung's GFLOPS divided by its
# parent's (ladder list). Bars grow up from 1 (green: the idea paid off) or down from 1
# (red: it cost time) on a log scale, so a halving looks as big as a doubling.
#
# Read from the prelude `ladder plot` writes:
#   data          table: position, "rung name", ratio, "1.42x"
#   n_steps, y_min, y_max
#   title_text, output_base, formats, scripts

load scripts."/style.gp"

set title title_text
set xlabel "rung  (compared with its parent: the rung whose kernel it changes)"
set ylabel "speed-up over the parent  (log scale)"
set logscale y 2
set yrange [y_min:y_max]
set ytics ("0.125x" 0.125, "0.25x" 0.25, "0.5x" 0.5, "1x" 1, "2x" 2, "4x" 4, "8x" 8, \
           "16x" 16, "32x" 32, "64x" 64)
set xrange [-0.6:n_steps-0.4]
set xtics scale 0 rotate by -30 left
set grid noxtics
# The key goes under the axis: outside the data, never over it.
set key outside bottom center horizontal Left reverse width 2 height 1
set style fill solid 0.85 border -1

half = 0.35
# A bar is drawn only in its own series: x is NaN (nothing drawn) for the other kind.
gain_x(x, r) = r >= 1 ? x : NaN
loss_x(x, r) = r < 1 ? x : NaN

do for [fmt in formats] {
    eval terminal_command(fmt)
    set output output_base.".".fmt
    # boxxyerror: x, y, x low, x high, y low, y high; each bar spans from 1 to the ratio.
    plot data using 1:(NaN):xtic(2) notitle, \
         data using (gain_x($1,$3)):3:($1-half):($1+half):(1):3 with boxxyerror \
             fc rgb gain_color title "faster than its parent", \
         data using (loss_x($1,$3)):3:($1-half):($1+half):3:(1) with boxxyerror \
             fc rgb loss_color title "slower than its parent", \
         data using (gain_x($1,$3)):3:4 with labels offset 0, 0.8 font ",12" notitle, \
         data using (loss_x($1,$3)):3:4 with labels offset 0, -0.8 font ",12" notitle, \
         1 with lines lc rgb "#000000" lw 1.5 title "no change"
    set output
}
