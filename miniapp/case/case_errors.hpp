#pragma once
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace miniapp::cases {

// The errors of one case file, gathered so that a user sees all of them at once rather than one per
// attempt.
class CaseErrors {
 public:
  // Runs `check`; a miniapp::Error it throws is kept, and the caller goes on. Returns whether it threw.
  bool collect(const std::function<void()>& check);
  // The same for the reading of `section`, whose error is dropped when the section already has one:
  // reading a key the schema refused would only report it again in other words.
  bool collect(std::string_view section, const std::function<void()>& check);
  // An error about the key `dotted` ("physics.re"), or about the section itself.
  void add(const Error& error, std::string_view dotted = "");
  bool empty() const { return messages_.empty(); }
  // Throws what was kept: a single error as it is, several as one Error of one line each, headed by
  // their count and `file`.
  void throw_if_any(const std::string& file) const;

 private:
  std::vector<std::string> messages_;
  std::set<std::string, std::less<>> sections_;  // those with an error
};

}  // namespace miniapp::cases
