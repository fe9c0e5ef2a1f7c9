# Writes build_info.hpp (from build_info.hpp.in) with the commit the source tree is at, "-dirty" for
# local changes. Run at every build (miniapp/predict/CMakeLists.txt), so that a calibration file names
# the build that measured it also after a commit without a new cmake run; configure_file rewrites the
# header only when its text changes, so an unchanged commit recompiles nothing.
# Inputs: SOURCE_DIR, TEMPLATE, OUTPUT, and the template's other values (compiler, build type, CUDA).
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE MINIAPP_GIT_DESCRIPTION OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE git_result)
if(NOT git_result EQUAL 0 OR MINIAPP_GIT_DESCRIPTION STREQUAL "")
  set(MINIAPP_GIT_DESCRIPTION "unknown")
else()
  execute_process(COMMAND git diff --quiet HEAD WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE git_dirty)
  if(NOT git_dirty EQUAL 0)
    string(APPEND MINIAPP_GIT_DESCRIPTION "-dirty")
  endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
