# The OpenCL backend's unit test. Included from tests/CMakeLists.txt when LADDER_HAVE_OPENCL.
# It runs on whatever OpenCL device exists (PoCL on a CPU-only machine) and exits 77, which
# ctest reports as skipped, when there is no OpenCL platform at all.
add_executable(test_opencl_backend ${CMAKE_CURRENT_LIST_DIR}/test_opencl_backend.c)
target_link_libraries(test_opencl_backend PRIVATE ladder_core)
add_test(NAME opencl_backend COMMAND test_opencl_backend)
set_tests_properties(opencl_backend PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS "opencl")

# The rungs with BLAS arguments (15 and up), then the vendor library, in every case they take
# (precision, transposes, layout), called with other alphas, betas and leading
# dimensions, on the OpenCL device.
add_test(NAME blas_semantics_opencl COMMAND test_blas_semantics opencl)
set_tests_properties(blas_semantics_opencl PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS "opencl")

# The same with leading dimensions whose products with a column number pass 2^31 (about
# 8.9 GB per case): only on a GPU that can allocate that much; skipped elsewhere.
add_test(NAME blas_semantics_opencl_large COMMAND test_blas_semantics opencl --large)
set_tests_properties(blas_semantics_opencl_large PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
                     LABELS "opencl")
