// The main of every test executable that CTest runs test case by test case (catch_discover_tests).
// A run whose filter selects no test case fails (exit code 2) instead of passing: a name the filter
// cannot match, such as one that CMake's list separator ';' cut short, would otherwise pass CTest
// without running anything.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;
  session.configData().warnings =
      static_cast<Catch::WarnAbout::What>(session.configData().warnings | Catch::WarnAbout::NoTests);
  return session.run();
}
