# common.gp: the canvas, colours and drawing helpers of the diagrams of the ideas.
#
# tools/draw-diagrams.sh runs each plots/diagrams/NN-*.gp with the rung's default
# parameters set as variables (TS = 32, WPT = 8 ...) and:
#   scripts       this folder
#   output_file   the picture to write
#   fmt           "svg" (what the tutorial commits) or "png" (to look at, or for slides)
# A diagram script sets canvas_w and canvas_h (pixels), loads this file, draws with the
# helpers below through `eval`, and ends with `eval finish`.
#
# Coordinates are pixels from the top-left corner, y growing downwards, as on a page:
# a matrix drawn at (x, y) has its row 0 at the top, like the matrices in the chapters.

font_name = "Sans"
font_size = 16
# SVG sizes text in pixels, cairo in points (3/4 of a pixel): the PNG shows what the SVG does.
pt(size) = fmt eq "svg" ? size : 0.75 * size

if (fmt eq "svg") {
    set terminal svg size canvas_w, canvas_h noenhanced font sprintf("%s,%d", font_name, font_size) background '#ffffff'
} else {
    png_terminal = strstrt(" ".GPVAL_TERMINALS." ", " pngcairo ") > 0 ? "pngcairo" : "png"
    eval sprintf("set terminal %s size %d,%d noenhanced font '%s,%d' background '#ffffff'", \
                 png_terminal, canvas_w, canvas_h, font_name, pt(font_size))
}
set output output_file
unset border
unset tics
unset key
set margins 0, 0, 0, 0
set xrange [0:canvas_w]
set yrange [canvas_h:0]

# --- colours: A blue, B orange, C green, local memory purple, one work-item red ---
c_A_light = "#deebf7"; c_A = "#9ecae1"; c_A_dark = "#3182bd"
c_B_light = "#fee6ce"; c_B = "#fdae6b"; c_B_dark = "#e6550d"
c_C_light = "#e5f5e0"; c_C = "#a1d99b"; c_C_dark = "#31a354"
c_local = "#efedf5"; c_local_dark = "#756bb1"
c_hi = "#d62728"       # the work-item (thread, lane) the diagram follows
c_hi2 = "#7b3294"      # a second one, to show how neighbours interleave
c_grid = "#c8c8c8"
c_edge = "#444444"
c_text = "#222222"
c_muted = "#777777"
c_off = "#eeeeee"      # what is dropped or unused

# --- shapes: each returns a command for `eval` ---
# Layers: boxes and cells are drawn first, then the grid lines, then highlights (hbox,
# hcell: what the picture follows, over the grid), then lines, arrows and text.
# A filled rectangle with a thin dark border, and one without a border.
box(x1, y1, x2, y2, fill) = sprintf("set object rect from %.2f,%.2f to %.2f,%.2f fc rgb '%s' fs solid 1.0 border lc rgb '%s' lw 1 back", x1, y1, x2, y2, fill, c_edge)
cell(x1, y1, x2, y2, fill) = sprintf("set object rect from %.2f,%.2f to %.2f,%.2f fc rgb '%s' fs solid 1.0 noborder back", x1, y1, x2, y2, fill)
hbox(x1, y1, x2, y2, fill) = sprintf("set object rect from %.2f,%.2f to %.2f,%.2f fc rgb '%s' fs solid 1.0 border lc rgb '%s' lw 1 front", x1, y1, x2, y2, fill, c_edge)
hcell(x1, y1, x2, y2, fill) = sprintf("set object rect from %.2f,%.2f to %.2f,%.2f fc rgb '%s' fs solid 1.0 noborder front", x1, y1, x2, y2, fill)
# An outline only, in a colour and width.
frame(x1, y1, x2, y2, color, width) = sprintf("set object rect from %.2f,%.2f to %.2f,%.2f fs empty border lc rgb '%s' lw %g front", x1, y1, x2, y2, color, width)
line(x1, y1, x2, y2, color, width) = sprintf("set arrow from %.2f,%.2f to %.2f,%.2f nohead lc rgb '%s' lw %g front", x1, y1, x2, y2, color, width)
dashed(x1, y1, x2, y2, color) = sprintf("set arrow from %.2f,%.2f to %.2f,%.2f nohead lc rgb '%s' lw 1.2 dt 2 front", x1, y1, x2, y2, color)
arrow(x1, y1, x2, y2) = sprintf("set arrow from %.2f,%.2f to %.2f,%.2f head filled size 9,25 lc rgb '%s' lw 1.6 front", x1, y1, x2, y2, c_edge)

# --- text: centred, left- or right-aligned, at a size; never containing a double quote ---
text_at(x, y, s, align, size, color) = sprintf('set label "%s" at %.2f,%.2f %s front tc rgb "%s" font ",%g"', s, x, y, align, color, pt(size))
text(x, y, s) = text_at(x, y, s, "center", font_size, c_text)
textl(x, y, s) = text_at(x, y, s, "left", font_size, c_text)
textr(x, y, s) = text_at(x, y, s, "right", font_size, c_text)
small(x, y, s) = text_at(x, y, s, "center", font_size - 3, c_text)
smalll(x, y, s) = text_at(x, y, s, "left", font_size - 3, c_text)
note(x, y, s) = text_at(x, y, s, "left", font_size - 1, c_muted)
heading(x, y, s) = text_at(x, y, s, "left", font_size + 3, c_text)
# Text turned a quarter anticlockwise (a label along a vertical edge).
vtext(x, y, s) = sprintf('set label "%s" at %.2f,%.2f center rotate by 90 front tc rgb "%s"', s, x, y, c_text)

# The grid lines of a box cut into nx x ny equal cells, for `do for [i=1:nx-1]`:
grid_line(x1, y1, x2, y2, color) = sprintf("set arrow from %.2f,%.2f to %.2f,%.2f nohead lc rgb '%s' lw 0.6 back", x1, y1, x2, y2, color)
grid_v(x1, y1, x2, y2, nx, i, color) = grid_line(x1 + (x2 - x1) * i / (1.0 * nx), y1, x1 + (x2 - x1) * i / (1.0 * nx), y2, color)
grid_h(x1, y1, x2, y2, ny, i, color) = grid_line(x1, y1 + (y2 - y1) * i / (1.0 * ny), x2, y1 + (y2 - y1) * i / (1.0 * ny), color)
# All the grid lines of a box of nx x ny cells (a command for `eval`, like the shapes).
grid(x1, y1, x2, y2, nx, ny, color) = sprintf("do for [gi=1:%d] { eval grid_v(%.2f, %.2f, %.2f, %.2f, %d, gi, '%s') }; do for [gi=1:%d] { eval grid_h(%.2f, %.2f, %.2f, %.2f, %d, gi, '%s') }", nx - 1, x1, y1, x2, y2, nx, color, ny - 1, x1, y1, x2, y2, ny, color)

# Draws everything set above (an empty plot carries the objects, arrows and labels).
finish = "plot NaN notitle; set output"
