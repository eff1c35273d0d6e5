#include "storage/table/table_file_system.hpp"

#include "common/confined_file_system.hpp"
#include "common/external_access.hpp"
#include "common/file_system.hpp"

namespace lakestream {

FileSystem* DataFileAccess::Confined() const {
  const ExternalAccessPolicy* p = policy.load();
  return p && !p->Enabled() ? beneath_root.get() : nullptr;
}

std::shared_ptr<DataFileAccess> DataFileAccess::For(const std::string& path, const ExternalAccessPolicy* policy) {
  auto access = std::make_shared<DataFileAccess>();
  access->policy = policy;
  if (!IsRemotePath(path)) {
    access->root = ExternalAccessPolicy::Normalize(path);
    access->beneath_root = std::make_unique<ConfinedFileSystem>(std::vector<ConfinedRoot>{{access->root, "", ""}});
  }
  return access;
}

Result<std::string> TableFileSystem::ReadFile(const std::string& path) { return Current()->ReadFile(path); }
Result<std::string> TableFileSystem::ReadRange(const std::string& path, uint64_t offset, uint64_t length) {
  return Current()->ReadRange(path, offset, length);
}
Result<FileSystem::Tail> TableFileSystem::ReadTail(const std::string& path, uint64_t length) {
  return Current()->ReadTail(path, length);
}
bool TableFileSystem::ReadsInPlace() const { return Current()->ReadsInPlace(); }
Result<int> TableFileSystem::OpenFile(const std::string& path, int flags, uint32_t mode) {
  return Current()->OpenFile(path, flags, mode);
}
Status TableFileSystem::WriteFile(const std::string& path, const std::string& contents) {
  return Current()->WriteFile(path, contents);
}
Result<std::vector<std::string>> TableFileSystem::ListDirectory(const std::string& dir) {
  return Current()->ListDirectory(dir);
}
Status TableFileSystem::CreateDirectories(const std::string& dir) { return Current()->CreateDirectories(dir); }
bool TableFileSystem::FileExists(const std::string& path) { return Current()->FileExists(path); }
Result<uint64_t> TableFileSystem::FileSize(const std::string& path) { return Current()->FileSize(path); }
Result<int64_t> TableFileSystem::ModificationTime(const std::string& path) { return Current()->ModificationTime(path); }
Status TableFileSystem::RemoveFile(const std::string& path) { return Current()->RemoveFile(path); }
Status TableFileSystem::Rename(const std::string& from, const std::string& to) { return Current()->Rename(from, to); }
Status TableFileSystem::Link(const std::string& from, const std::string& to) { return Current()->Link(from, to); }
Status TableFileSystem::Fsync(const std::string& path) { return Current()->Fsync(path); }
Status TableFileSystem::FsyncDirectory(const std::string& dir) { return Current()->FsyncDirectory(dir); }
Status TableFileSystem::FsyncAll(const DurableSet& paths) { return Current()->FsyncAll(paths); }
Status TableFileSystem::PutIfAbsent(const std::string& path, const std::string& contents, const DurableSet& first) {
  return Current()->PutIfAbsent(path, contents, first);
}
Status TableFileSystem::WriteFileAtomic(const std::string& path, const std::string& contents) {
  return Current()->WriteFileAtomic(path, contents);
}
Status TableFileSystem::SetMode(const std::string& path, uint32_t mode) { return Current()->SetMode(path, mode); }

}  // namespace lakestream
