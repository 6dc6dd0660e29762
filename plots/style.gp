# style.gp: the look shared by every gemm-ladder figure.
#
# Each figure script loads this file first. `ladder plot` never edits these scripts: it
# writes a small prelude of variables (data file, titles, counts) and then loads the figure
# script, so restyling every figure is a matter of editing the lines below.

# --- size and font: 16:9, readable on a projected slide ---
figure_width  = 1280
figure_height = 720
font_name     = "Sans"
font_size     = 13

# --- terminals ---
# pngcairo draws smoother lines and text than the older png (libgd) terminal; use it when
# this gnuplot has it. noenhanced: device names such as "cpu-haswell-AMD_EPYC" must be
# printed as they are, not with "_E" turned into a subscript.
png_terminal = strstrt(" ".GPVAL_TERMINALS." ", " pngcairo ") > 0 ? "pngcairo" : "png"
# The SVG terminal draws points larger than pngcairo does at the same size: scale them.
png_point_size = 1.3
svg_point_size = 0.9
terminal_command(fmt) = (fmt eq "svg") \
    ? sprintf("set terminal svg size %d,%d dynamic noenhanced font '%s,%d' background '#ffffff'; set pointsize %g", \
              figure_width, figure_height, font_name, font_size, svg_point_size) \
    : sprintf("set terminal %s size %d,%d noenhanced font '%s,%d' background '#ffffff'; set pointsize %g", \
              png_terminal, figure_width, figure_height, font_name, font_size, png_point_size)

# --- data files ---
# "?" marks a value that was not measured; lines connect across it.
set datafile missing "?"

# --- rung colours: rung N is drawn with line type N in every figure, so a student can
# follow one rung from chart to chart. Ten clearly different hues (the "tab10" set, its grey
# swapped for indigo so that no rung looks like a library line), then light and dark
# variants; the point shapes differ too (filled up to rung 12, open after), for readers who
# do not tell the hues apart. Rungs past 20 would repeat the first colours.
set linetype 1  lc rgb "#1f77b4" lw 2.5 pt 7
set linetype 2  lc rgb "#ff7f0e" lw 2.5 pt 5
set linetype 3  lc rgb "#2ca02c" lw 2.5 pt 9
set linetype 4  lc rgb "#d62728" lw 2.5 pt 11
set linetype 5  lc rgb "#9467bd" lw 2.5 pt 13
set linetype 6  lc rgb "#8c564b" lw 2.5 pt 15
set linetype 7  lc rgb "#e377c2" lw 2.5 pt 7
set linetype 8  lc rgb "#393b79" lw 2.5 pt 5
set linetype 9  lc rgb "#bcbd22" lw 2.5 pt 9
set linetype 10 lc rgb "#17becf" lw 2.5 pt 11
set linetype 11 lc rgb "#aec7e8" lw 2.5 pt 13
set linetype 12 lc rgb "#ffbb78" lw 2.5 pt 15
set linetype 13 lc rgb "#637939" lw 2.5 pt 4
set linetype 14 lc rgb "#843c39" lw 2.5 pt 6
set linetype 15 lc rgb "#7b4173" lw 2.5 pt 8
set linetype 16 lc rgb "#e7ba52" lw 2.5 pt 10
set linetype 17 lc rgb "#d6616b" lw 2.5 pt 12
set linetype 18 lc rgb "#6b6ecf" lw 2.5 pt 14
set linetype 19 lc rgb "#31a354" lw 2.5 pt 3
set linetype 20 lc rgb "#8c6d31" lw 2.5 pt 1
set linetype cycle 20
rung_type(n) = (int(n) - 1) % 20 + 1

# --- reference lines: vendor libraries dashed in greys, the FP32 peak in red ---
library_color(i) = i == 1 ? "#000000" : i == 2 ? "#555555" : "#999999"
library_dash(i)  = i == 1 ? 2 : i == 2 ? 4 : 5
peak_color       = "#800000"

# --- backend colours for bars: the same backend keeps its colour in every chart ---
backend_color(b) = b eq "cuda" ? "#5a9a08" : b eq "opencl" ? "#2c6fbb" : "#888888"

# --- gain and loss in the step chart ---
gain_color = "#4daf4a"
loss_color = "#e41a1c"

# --- common frame: light grid behind the data, key outside the plot so it never covers it ---
set grid back lc rgb "#dddddd" lw 1
set border 3 lc rgb "#444444"
set tics nomirror
set key outside right top vertical Left reverse noautotitle samplen 4 spacing 1.2
set title font ",15"

# --- the shapes chart: the fastest rung and the shape-aware entry ---
shape_best_color = "#2c6fbb"
shape_auto_color = "#d95f02"
