# lineage.gp: the ladder's shape. One row per rung in number order; a dot per rung in the
# lane of its branch, a solid line from its parent (the rung whose kernel it changes: what
# `ladder diff N` shows), a dashed one from a second parent whose idea it also takes; its
# name and idea to the right. Blue dots: rungs in OpenCL and CUDA; green: CUDA only;
# grey: OpenCL only.
#
# Read from the prelude `ladder lineage --output DIR` writes:
#   data          block 0: lane, row, number, "name", "idea", only (0 both,
#                 1 CUDA only, 2 OpenCL only)
#                 block 1: parent -> rung segments (x, y, dx, dy); block 2: second parents
#   n_lanes, n_rows, title_text, output_base, formats, scripts

load scripts."/style.gp"

# Taller than the charts: one row per rung must stay readable.
figure_height = 40 * n_rows + 140
lane_px  = 46                                  # the width of a lane
text_px  = figure_width - 90 - lane_px * (n_lanes + 1)   # room for names and ideas

set title title_text
unset border
unset xtics
unset ytics
unset grid
set lmargin at screen 0.02
set rmargin at screen 0.98
set tmargin 3
set bmargin 4
set xrange [-0.8 : n_lanes - 0.2 + text_px / lane_px]
set yrange [n_rows - 0.4 : -0.6]
set key outside bottom center horizontal samplen 3 width 2

both_color = backend_color("opencl")
cuda_color = backend_color("cuda")
opencl_only_color = "#888888"
name_x = n_lanes - 0.5                         # where the names start
# A rung is drawn in one of the three dot series: y is NaN (nothing drawn) in the others.
both_y(y, only) = only != 0 ? NaN : y
cuda_y(y, only) = only == 1 ? y : NaN
opencl_y(y, only) = only == 2 ? y : NaN

do for [fmt in formats] {
    eval terminal_command(fmt)
    set output output_base.".".fmt
    plot data index 1 using 1:2:3:4 with vectors nohead lw 2.5 lc rgb "#555555" \
             title "the rung whose kernel it changes (ladder diff N)", \
         data index 2 using 1:2:3:4 with vectors nohead lw 2 dt 2 lc rgb "#999999" \
             title "a rung whose idea it also takes", \
         data index 0 using 1:(both_y($2,$6)) with points pt 7 ps 3.4 lc rgb both_color \
             title "OpenCL and CUDA", \
         data index 0 using 1:(cuda_y($2,$6)) with points pt 7 ps 3.4 lc rgb cuda_color \
             title "CUDA only", \
         data index 0 using 1:(opencl_y($2,$6)) with points pt 7 ps 3.4 lc rgb opencl_only_color \
             title "OpenCL only", \
         data index 0 using 1:2:(sprintf("%d", $3)) with labels tc rgb "#ffffff" \
             font ",11" notitle, \
         data index 0 using (name_x):2:((stringcolumn(4).": ".stringcolumn(5))) \
             with labels left font ",13" notitle
    set output
}
