# Approximate inverse preconditioner: host set-up (pattern, Chow's conditions, errors, PCG iterations)
# and the executor apply. Included from tests/solvers/CMakeLists.txt.
add_executable(aip_test aip_test.cpp)
target_link_libraries(aip_test PRIVATE miniapp_solvers miniapp_test_main)
catch_discover_tests(aip_test)
