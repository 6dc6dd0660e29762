# CUDA tests that need no GPU. Included from tests/CMakeLists.txt when LADDER_HAVE_CUDA is ON.

# Every kernel rung (and helpers.cu) compiles with NVRTC for sm_90, with the default and the
# small-device parameters. NVRTC needs no driver, so this runs in CI.
add_executable(test_nvrtc_compile ${CMAKE_CURRENT_LIST_DIR}/test_nvrtc_compile.c)
target_link_libraries(test_nvrtc_compile PRIVATE ladder_core ladder_nvrtc)
add_test(NAME nvrtc_compile_all_rungs COMMAND test_nvrtc_compile)
# About 150 compiles: 2-3 minutes on two cores, and past 300 s once (the sanitizers' pass
# of CI, with the machine busy). The limit only catches a hung compiler.
set_tests_properties(nvrtc_compile_all_rungs PROPERTIES TIMEOUT 900 LABELS "cuda;nogpu")

# Split-K's tiles keep their sums in registers: ptxas's report for every tile the profiler
# tries says no spills (about 30 compiles); so does rung 20's at the fallback rule's
# parameters (2 more), and a call of rung 20 compiles only the kernel it launches (1 more).
add_test(NAME nvrtc_splitk_spills COMMAND test_nvrtc_compile --spills)
set_tests_properties(nvrtc_splitk_spills PROPERTIES TIMEOUT 600 LABELS "cuda;nogpu")

# The rungs with BLAS arguments (15 and up), then the vendor library, in every case they take
# (precision, transposes, layout), called with other alphas, betas and leading
# dimensions, on a CUDA GPU; skipped without one.
# Every rung in one process: more than 150 s on an H100, mostly NVRTC compiling each rung
# for each precision and pair (tools/gpu/check-semantics.sh runs the rungs side by side).
add_test(NAME blas_semantics_cuda COMMAND test_blas_semantics cuda)
set_tests_properties(blas_semantics_cuda PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
                     LABELS "cuda")

# The same with leading dimensions whose products with a column number pass 2^31 (about
# 8.9 GB per case): only on a GPU that can allocate that much; skipped elsewhere.
add_test(NAME blas_semantics_cuda_large COMMAND test_blas_semantics cuda --large)
set_tests_properties(blas_semantics_cuda_large PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
                     LABELS "cuda")
