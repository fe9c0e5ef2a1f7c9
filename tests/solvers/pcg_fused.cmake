# The fused PCG against the unfused iteration, check intervals, CPU vs CUDA (skipped without a device).
# Included from tests/solvers/CMakeLists.txt.
target_sources(solvers_test PRIVATE pcg_fused_test.cpp)
