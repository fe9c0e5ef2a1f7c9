#include "miniapp/case/case_errors.hpp"

namespace miniapp::cases {

bool CaseErrors::collect(const std::function<void()>& check) {
  try {
    check();
  } catch (const Error& e) {
    add(e);
    return true;
  }
  return false;
}

bool CaseErrors::collect(std::string_view section, const std::function<void()>& check) {
  try {
    check();
  } catch (const Error& e) {
    if (!sections_.contains(section)) add(e, section);
    return true;
  }
  return false;
}

void CaseErrors::add(const Error& error, std::string_view dotted) {
  messages_.push_back(error.what());
  if (!dotted.empty()) sections_.emplace(dotted.substr(0, dotted.find('.')));
}

void CaseErrors::throw_if_any(const std::string& file) const {
  if (messages_.empty()) return;
  if (messages_.size() == 1) throw Error(messages_.front());
  std::string all = file + ": " + std::to_string(messages_.size()) + " errors:";
  for (const std::string& m : messages_) all += "\n  " + m;
  throw Error(all);
}

}  // namespace miniapp::cases
