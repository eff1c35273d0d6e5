// CommitNotifier: tells the followers in this process (a sink's follow loop,
// a pipeline's continuous mode, a Python streaming query) that a table has
// a new commit, so they deliver it at once instead of at their next poll.
//
// Keys are table locations (a Delta table's path) or any other name both
// sides agree on. Publish(key, version) is called after the commit is
// durable, with the version that is now the latest; a version not above the
// last one published for the key is ignored, so several open databases of one
// process may publish the same commit. A subscriber's callback runs on the
// publishing thread under the notifier's lock: it must only signal (e.g.
// FileWatcher::Wake), never block or call back into the notifier.
//
// Like a file notification this is a hint: the follower re-reads its
// position and the table as it would after a poll.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

namespace lakestream {

class CommitNotifier {
 public:
  // The process's notifier (commits and followers of every open database).
  static CommitNotifier& Global();

  void Publish(const std::string& key, int64_t version);
  // The latest version published for `key`, -1 for none.
  int64_t Latest(const std::string& key) const;

  // Calls `on_commit` after each later Publish of `key` (that moves it);
  // returns the id Unsubscribe takes.
  uint64_t Subscribe(const std::string& key, std::function<void()> on_commit);
  void Unsubscribe(uint64_t id);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, int64_t> latest_;
  std::multimap<std::string, std::pair<uint64_t, std::function<void()>>> subscribers_;
  uint64_t next_id_ = 1;
};

}  // namespace lakestream
