#include "common/commit_notifier.hpp"

namespace lakestream {

CommitNotifier& CommitNotifier::Global() {
  static CommitNotifier notifier;
  return notifier;
}

void CommitNotifier::Publish(const std::string& key, int64_t version) {
  std::lock_guard<std::mutex> guard(mutex_);
  auto [it, inserted] = latest_.emplace(key, version);
  if (!inserted) {
    if (version <= it->second) return;
    it->second = version;
  }
  auto [first, last] = subscribers_.equal_range(key);
  for (auto sub = first; sub != last; ++sub) sub->second.second();
}

int64_t CommitNotifier::Latest(const std::string& key) const {
  std::lock_guard<std::mutex> guard(mutex_);
  auto it = latest_.find(key);
  return it == latest_.end() ? -1 : it->second;
}

uint64_t CommitNotifier::Subscribe(const std::string& key, std::function<void()> on_commit) {
  std::lock_guard<std::mutex> guard(mutex_);
  uint64_t id = next_id_++;
  subscribers_.emplace(key, std::make_pair(id, std::move(on_commit)));
  return id;
}

void CommitNotifier::Unsubscribe(uint64_t id) {
  std::lock_guard<std::mutex> guard(mutex_);
  for (auto it = subscribers_.begin(); it != subscribers_.end(); ++it) {
    if (it->second.first == id) {
      subscribers_.erase(it);
      return;
    }
  }
}

}  // namespace lakestream
