# Pointwise flow kernels (LES eddy viscosity, CFL reductions) through the CPU front ends.
target_sources(operators_test PRIVATE flow_kernels_test.cpp)
