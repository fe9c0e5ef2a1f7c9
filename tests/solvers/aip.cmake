# Approximate inverse preconditioner: host set-up (pattern, Chow's conditions, errors, PCG iterations)
# and the executor apply. Included from tests/solvers/CMakeLists.txt.
add_executable(aip_test aip_test.cpp)
target_link_libraries(aip_test PRIVATE miniapp_solvers miniapp_test_main)
miniapp_discover_tests(aip_test)
# The CUDA apply against the CPU reference: built with the CUDA backend only, skipped (77) at run
# time without a device.
if(MINIAPP_WITH_CUDA)
  add_executable(aip_cuda_test aip_cuda_test.cpp)
  target_link_libraries(aip_cuda_test PRIVATE miniapp_solvers miniapp_cuda_test_main)
  miniapp_add_cuda_suite(aip_cuda aip_cuda_test)
endif()
