# Tests of `ladder plot`: drawing from the committed fixtures (tests/fixtures/plot/, invented
# numbers, not measurements) and the error message of every bad input. They need gnuplot,
# which tools/install-deps.sh installs; they need no GPU.
set(LADDER_PLOT_FIXTURES ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/plot)

add_executable(test_plot_model ${CMAKE_CURRENT_SOURCE_DIR}/plot/test_plot_model.c)
target_link_libraries(test_plot_model PRIVATE ladder_core)
add_test(NAME plot_model COMMAND test_plot_model ${LADDER_PLOT_FIXTURES})

foreach(script draw bad-input shapes accuracy)
  add_test(NAME plot_${script}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plot/${script}.sh
                   $<TARGET_FILE:ladder> ${LADDER_PLOT_FIXTURES})
endforeach()
add_test(NAME plot_gnuplot-failure
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plot/gnuplot-failure.sh
                 $<TARGET_FILE:ladder> ${LADDER_PLOT_FIXTURES} ${CMAKE_SOURCE_DIR}/plots)
add_test(NAME plot_style
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plot/style.sh ${CMAKE_SOURCE_DIR}/plots)

# The diagrams of the ideas (tools/draw-diagrams.sh): the committed SVGs in
# tutorial/figures/diagrams/ are what plots/diagrams/*.gp draw from the registry today.
add_test(NAME plot_diagrams
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plot/diagrams.sh
                 $<TARGET_FILE:ladder> ${CMAKE_SOURCE_DIR})

# The roofline and its ceilings file (--ceilings), from the fixtures.
add_test(NAME plot_roofline
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plot/roofline.sh
                 $<TARGET_FILE:ladder> ${LADDER_PLOT_FIXTURES})
