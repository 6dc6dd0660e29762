# Tests of the tutorial machinery: `ladder table` on invented fixtures (tests/fixtures/table/),
# tools/update-tables.sh (with its manifest, tutorial/sources.tsv), tools/draw-figures.sh,
# tools/check-links.sh, tools/check-chapters.sh, and the real tutorial checked by them:
# every generated table, value and diff matches the committed results and kernels, every
# result file a chapter or README reads is in the manifest (and every file the manifest
# lists for tables is read), every link points at a file a clone has, and the chapters link
# each to the next and the previous. None needs a GPU.
set(LADDER_TABLE_FIXTURES ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/table)

add_executable(test_table_format ${CMAKE_CURRENT_SOURCE_DIR}/table/test_table_format.c)
target_link_libraries(test_table_format PRIVATE ladder_core)
add_test(NAME table_format COMMAND test_table_format)

add_test(NAME table_cli
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/table/table-cli.sh
                 $<TARGET_FILE:ladder> ${LADDER_TABLE_FIXTURES})
add_test(NAME table_update_script
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/table/update-script.sh
                 $<TARGET_FILE:ladder> ${CMAKE_SOURCE_DIR})
add_test(NAME tutorial_draw_figures
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tutorial/draw-figures.sh
                 $<TARGET_FILE:ladder> ${CMAKE_SOURCE_DIR})
add_test(NAME tutorial_lineage_figure
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tutorial/lineage-figure.sh
                 $<TARGET_FILE:ladder> ${CMAKE_SOURCE_DIR})
add_test(NAME tutorial_links_broken
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/table/links-broken.sh ${CMAKE_SOURCE_DIR})

# The real files: the tutorial chapters, README.md and the other READMEs.
add_test(NAME tutorial_tables_fresh
         COMMAND bash ${CMAKE_SOURCE_DIR}/tools/update-tables.sh --check)
set_tests_properties(tutorial_tables_fresh PROPERTIES
                     ENVIRONMENT "LADDER=$<TARGET_FILE:ladder>")
add_test(NAME tutorial_links_valid COMMAND bash ${CMAKE_SOURCE_DIR}/tools/check-links.sh)

# A reader can walk from the first chapter to the last by links alone: tools/check-chapters.sh
# on invented chains, whole and broken, then on the real tutorial.
add_test(NAME tutorial_chain_broken
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/table/chapters-broken.sh ${CMAKE_SOURCE_DIR})
add_test(NAME tutorial_chain_whole COMMAND bash ${CMAKE_SOURCE_DIR}/tools/check-chapters.sh)

# Every exercise has its expected outcome in answers.md: tools/check-answers.sh on invented
# pages, whole and broken, then on the real tutorial.
add_test(NAME tutorial_answers_broken
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/table/answers-broken.sh ${CMAKE_SOURCE_DIR})
add_test(NAME tutorial_answers_whole COMMAND bash ${CMAKE_SOURCE_DIR}/tools/check-answers.sh)

# The results notes: chapters 17 and 18 moved the record of what was tried (variant tables,
# searches, profiles) into the README of the results folder each came from, markers and all.
add_test(NAME results_notes_tables_fresh
         COMMAND bash -c "tools/update-tables.sh --check results/*/README.md"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(results_notes_tables_fresh PROPERTIES
                     ENVIRONMENT "LADDER=$<TARGET_FILE:ladder>")
