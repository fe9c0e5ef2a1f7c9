# Approximate inverse preconditioner: host set-up (pattern, Chow's conditions, errors, PCG iterations)
# and the executor apply. Included from tests/solvers/CMakeLists.txt.
add_executable(aip_test aip_test.cpp)
target_link_libraries(aip_test PRIVATE miniapp_solvers miniapp_test_main)
miniapp_discover_tests(aip_test)
# The CUDA apply against the CPU reference: built with the CUDA backend only, skipped (77) at run
# time without a device.
if(MINIAPP_WITH_CUDA)
  add_executable(aip_cuda_test ${PROJECT_SOURCE_DIR}/tests/cuda/main.cpp aip_cuda_test.cpp)
  target_link_libraries(aip_cuda_test PRIVATE miniapp_solvers Catch2::Catch2)
  add_test(NAME aip_cuda COMMAND aip_cuda_test)
  set_tests_properties(aip_cuda PROPERTIES SKIP_RETURN_CODE 77 LABELS "cuda;gpu")
endif()
