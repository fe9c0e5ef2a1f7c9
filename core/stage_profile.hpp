#pragma once
#include <chrono>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace miniapp {

// User and system seconds of every thread of the process so far.
inline double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Wall and CPU seconds of the parts of a set-up stage, summed per name in the order first timed, for
// the lines under the stage's own: "    file read                 1.234 s (cpu 1.234 s)".
class StageProfile {
 public:
  // Adds the time from its construction to its destruction to part `name` of `profile` (nothing when
  // `profile` is null).
  class Part {
   public:
    Part(StageProfile* profile, const char* name)
        : profile_(profile), name_(name), start_(std::chrono::steady_clock::now()),
          cpu_start_(profile ? process_cpu_seconds() : 0.0) {}
    ~Part() {
      if (!profile_) return;
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      profile_->add(name_, wall, process_cpu_seconds() - cpu_start_);
    }
    Part(const Part&) = delete;
    Part& operator=(const Part&) = delete;

   private:
    StageProfile* profile_;
    const char* name_;
    std::chrono::steady_clock::time_point start_;
    double cpu_start_;
  };

  void add(const std::string& name, double wall, double cpu) {
    for (Entry& e : entries_)
      if (e.name == name) {
        e.wall += wall, e.cpu += cpu;
        return;
      }
    entries_.push_back({name, wall, cpu});
  }

  void print(std::ostream& out) const {
    for (const Entry& e : entries_)
      out << "    " << std::left << std::setw(26) << e.name << std::right << std::fixed << std::setprecision(3)
          << e.wall << " s (cpu " << e.cpu << " s)\n"
          << std::defaultfloat;
  }

 private:
  struct Entry {
    std::string name;
    double wall = 0, cpu = 0;
  };
  std::vector<Entry> entries_;
};

// f()'s result, the time it took added to part `name` of `profile` (for a member initialiser).
template <class F>
auto timed_part(StageProfile* profile, const char* name, F&& f) {
  StageProfile::Part part(profile, name);
  return f();
}

}  // namespace miniapp
