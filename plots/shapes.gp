# shapes.gp: the shapes chart of one device and backend. Shape by shape, grouped by class,
# the fastest rung and the shape-aware entry ("auto") as a fraction of the vendor library
# at the same shape, on a log scale with a line at 1 (as fast as the library): the shapes
# where the ladder loses sit below the line.
#
# Read from the prelude `ladder plot` writes:
#   data          table: position, "shape", "class", the fastest rung's ratio, "its
#                 number", auto's ratio, "the rung auto chose"
#   n_shapes, y_min, y_max
#   n_classes, class_name[k], class_first[k], class_last[k]: the positions of class k
#   title_text, ylabel_text, best_title, auto_title, library_title
#   output_base, formats, scripts

load scripts."/style.gp"

set title title_text
set ylabel ylabel_text
set logscale y 2
set yrange [y_min:y_max]
set format y "%.3gx"
set xrange [-0.7:n_shapes-0.3]
set xtics scale 0 rotate by -45 left font ",10"
set grid noxtics
set key outside bottom center vertical Left reverse width 2
set bmargin 12

# A dashed line between classes, and each class's name over its shapes.
do for [k=1:n_classes] {
    if (k > 1) {
        set arrow from class_first[k] - 0.5, graph 0 to class_first[k] - 0.5, graph 1 \
            nohead dt 2 lc rgb "#888888" lw 1
    }
    set label k class_name[k] at (class_first[k] + class_last[k]) / 2.0, graph 0.96 \
        center font ",11" textcolor rgb "#444444"
}

do for [fmt in formats] {
    eval terminal_command(fmt)
    set output output_base.".".fmt
    plot data using 1:(NaN):xtic(2) notitle, \
         1 with lines lc rgb "#000000" lw 1.5 dt 2 title library_title, \
         data using 1:4 with points pt 7 ps 1.5 lc rgb shape_best_color title best_title, \
         data using 1:4:5 with labels offset 0, 0.9 font ",9" \
             textcolor rgb shape_best_color notitle, \
         data using 1:6 with points pt 13 ps 1.7 lc rgb shape_auto_color title auto_title, \
         data using 1:6:7 with labels offset 0, -0.9 font ",9" \
             textcolor rgb shape_auto_color notitle
    set output
}
