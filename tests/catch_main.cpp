// The main of every Catch test executable (miniapp_test_main; miniapp_cuda_test_main for the CUDA
// suites, compiled with MINIAPP_TEST_NEEDS_DEVICE).
// - A run whose filter selects no test case fails (exit code 2) instead of passing: a name the filter
//   cannot match, such as one cut short by CMake's list separator ';', would otherwise pass CTest
//   without running anything.
// - Where no CUDA device is visible (a CPU-only machine, a build without CUDA), a CUDA suite, or a run
//   whose test cases are all tagged [cuda], exits 77, which CTest reports as skipped: not run rather
//   than passed or failed.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>

#include "operators/backend/cuda/device.hpp"

namespace {

constexpr int skipped = 77;  // CTest's SKIP_RETURN_CODE of these tests

#ifdef MINIAPP_TEST_NEEDS_DEVICE
constexpr bool suite_needs_device = true;
#else
constexpr bool suite_needs_device = false;
#endif

bool only_cuda_cases(Catch::Session& session) {
  const Catch::Config& config = session.config();
  const auto cases = Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  return !cases.empty() && std::all_of(cases.begin(), cases.end(), [](const Catch::TestCase& c) {
    return std::find(c.tags.begin(), c.tags.end(), "cuda") != c.tags.end();
  });
}

}  // namespace

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;
  session.configData().warnings =
      static_cast<Catch::WarnAbout::What>(session.configData().warnings | Catch::WarnAbout::NoTests);
  if (miniapp::cuda::device_count() == 0 && (suite_needs_device || only_cuda_cases(session))) {
    std::cout << argv[0] << ": no CUDA device visible, skipped\n";
    return skipped;
  }
  // Catch returns the number of failed assertions (at most 255): 77 of them must not read as skipped.
  const int failed = session.run();
  return failed == skipped ? skipped + 1 : failed;
}
