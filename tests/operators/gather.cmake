# Indexed copies (operators/kernels/gather.hpp), the pack/unpack of halo exchanges, CPU backend.
target_sources(operators_test PRIVATE gather_test.cpp)
