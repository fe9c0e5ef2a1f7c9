# Fused CG kernels (operators/kernels/cg_kernels.hpp) against their unfused compositions, CPU backend.
target_sources(operators_test PRIVATE cg_kernels_test.cpp)
