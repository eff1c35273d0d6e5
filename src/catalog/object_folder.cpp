#include "catalog/object_folder.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/exception.hpp"
#include "common/s3/s3_file_system.hpp"
#include "common/string_util.hpp"

namespace lakestream {

// Folder names under the database directory that are not objects.
static const char* const kReservedFolders[] = {"_lakestream"};

static bool IsPlain(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static void AppendEscaped(std::string& out, unsigned char c) {
  static const char* kHex = "0123456789ABCDEF";
  out += '%';
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

static std::string Encode(const std::string& name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size(); i++) {
    auto c = static_cast<unsigned char>(name[i]);
    if (IsPlain(c) || (c == '.' && i > 0)) {
      out += static_cast<char>(c);
    } else {
      AppendEscaped(out, c);
    }
  }
  for (const char* reserved : kReservedFolders) {
    if (StringUtil::CIEquals(out, reserved)) {
      std::string escaped;
      AppendEscaped(escaped, static_cast<unsigned char>(out[0]));
      out = escaped + out.substr(1);
    }
  }
  return out;
}

void CheckObjectName(const std::string& name, const char* kind) {
  if (name.empty()) {
    throw CatalogError(std::string("A ") + kind + " name cannot be empty; give it a name of at least one character");
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7F) {
      std::string shown;
      AppendEscaped(shown, c);
      throw CatalogError(std::string("The ") + kind + " name \"" + Encode(name) + "\" (escaped) holds the control character " +
                         shown + "; names cannot hold NUL or other control characters (0x00-0x1F, 0x7F), pick another name");
    }
  }
  std::string folder = Encode(name);
  if (folder.size() > kMaxFolderNameBytes) {
    throw CatalogError(std::string("The ") + kind + " name " + name.substr(0, 40) + "... is too long: its folder name would be " +
                       std::to_string(folder.size()) + " bytes and the limit is " + std::to_string(kMaxFolderNameBytes) +
                       " (letters, digits, '_', '-' and '.' count 1 byte, every other byte 3); pick a shorter name");
  }
}

std::string ObjectFolderName(const std::string& name, const char* kind) {
  CheckObjectName(name, kind);
  return Encode(name);
}

static int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> ObjectNameFromFolder(std::string_view folder) {
  std::string name;
  for (size_t i = 0; i < folder.size(); i++) {
    if (folder[i] != '%') {
      name += folder[i];
      continue;
    }
    if (i + 2 >= folder.size()) return std::nullopt;
    int hi = HexValue(folder[i + 1]);
    int lo = HexValue(folder[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    name += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  // Only the canonical spelling decodes: each name has exactly one folder.
  if (name.empty() || Encode(name) != folder) return std::nullopt;
  return name;
}

// On object storage a folder is a key prefix: no symlinks, so the check is
// lexical (every component plain, none "." or ".."), and "exists" means some
// object lies under it.
static Status CheckOwnedPrefix(const std::string& root, const std::string& folder, const std::string& relative) {
  size_t start = 0;
  while (true) {
    size_t slash = relative.find('/', start);
    std::string component = relative.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (component.empty() || component == "." || component == "..") {
      return Status::InvalidArgument(folder + " is not a plain folder path inside " + root);
    }
    // The metadata folder holds the catalog and the lease; only a view's
    // state folder (_lakestream/ivm/<view>) is an object's below it.
    if (start == 0 && StringUtil::CIEquals(component, kReservedFolders[0]) &&
        !StringUtil::StartsWith(relative, component + "/ivm/")) {
      return Status::InvalidArgument(folder + " is the database's own metadata folder, not a folder of an object");
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  auto listed = FileSystem::For(folder)->ListDirectory(folder);
  if (!listed.ok()) return listed.status().IsNotFound() ? Status::NotFound(folder + " holds no object") : listed.status();
  return Status::OK();
}

Status CheckOwnedFolder(const std::string& root, const std::string& folder) {
  std::string prefix = root + "/";
  if (!StringUtil::StartsWith(folder, prefix)) {
    return Status::InvalidArgument(folder + " is not inside " + root);
  }
  std::string relative = folder.substr(prefix.size());
  if (IsRemotePath(root) || IsRemotePath(folder)) return CheckOwnedPrefix(root, folder, relative);
  // Every component below root must be a real directory: a symlink at any
  // step could point anywhere.
  std::string path = root;
  size_t start = 0;
  while (true) {
    size_t slash = relative.find('/', start);
    std::string component = relative.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (component.empty() || component == "." || component == "..") {
      return Status::InvalidArgument(folder + " is not a plain folder path inside " + root);
    }
    path += "/" + component;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) return Status::NotFound(path + " does not exist");
      return Status::IOError("cannot inspect " + path + ": " + std::strerror(errno));
    }
    if (S_ISLNK(st.st_mode)) return Status::InvalidArgument(path + " is a symbolic link, not a folder of the database");
    if (!S_ISDIR(st.st_mode)) return Status::InvalidArgument(path + " is not a directory");
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::error_code ec;
  auto real_root = std::filesystem::canonical(root, ec);
  if (ec) return Status::IOError("cannot resolve " + root + ": " + ec.message());
  auto real_folder = std::filesystem::canonical(folder, ec);
  if (ec) return Status::IOError("cannot resolve " + folder + ": " + ec.message());
  if (real_folder != real_root / relative) {
    return Status::InvalidArgument(folder + " resolves to " + real_folder.string() + ", outside " + real_root.string());
  }
  return Status::OK();
}

Status RemoveOwnedFolder(const std::string& root, const std::string& folder) {
  Status s = CheckOwnedFolder(root, folder);
  if (s.IsNotFound()) return Status::OK();
  if (!s.ok()) return s;
  if (IsRemotePath(folder)) {
    // Only keys under "<folder>/": never "<folder>2/...", never above it.
    auto loc = ParseS3Path(folder);
    if (!loc.ok()) return loc.status();
    std::string key_prefix = loc.value().key + "/";
    auto objects = S3FileSystem::Instance()->ListRecursive(folder);
    if (!objects.ok()) return objects.status();
    for (auto& object : objects.value()) {
      if (!StringUtil::StartsWith(object.key, key_prefix)) continue;
      Status removed = S3FileSystem::Instance()->RemoveFile("s3://" + loc.value().bucket + "/" + object.key);
      if (!removed.ok() && !removed.IsNotFound()) return removed;
    }
    return Status::OK();
  }
  // std::filesystem::remove_all removes a symlink it meets as a link and
  // does not descend into it.
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);
  if (ec) return Status::IOError("cannot delete " + folder + ": " + ec.message());
  return Status::OK();
}

}  // namespace lakestream
