// Names are never paths. An object's name (table, materialized view,
// streaming table, stream, sink) becomes a folder name only through
// ObjectFolderName, a reversible escaping (docs/names.md gives the grammar),
// so no name can reach outside its own folder: "..", "a/b", "_lakestream"
// all map to one plain component under the database directory.
//
// Deleting an object's files goes through RemoveOwnedFolder, which deletes
// only a folder that is one real (not symlinked) directory directly under
// its root, and never follows a symlink while deleting.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace lakestream {

// The longest folder name (bytes) most file systems accept for one path component.
constexpr size_t kMaxFolderNameBytes = 255;

// The folder name of an object called `name`: letters, digits, '_' and '-'
// stay; '.' stays unless it comes first; every other byte (including each
// byte of a non-ASCII character) becomes %XX (upper-case hex); a name whose
// folder would be "_lakestream" (any case) has its first '_' escaped.
// Throws CatalogError, naming `kind` and `name`, when `name` cannot be a name
// at all (see CheckObjectName).
std::string ObjectFolderName(const std::string& name, const char* kind);

// Throws CatalogError when `name` cannot name an object of `kind` ("table",
// "stream", ...): empty, holding a NUL or another control character, or
// with a folder name (above) longer than kMaxFolderNameBytes. Called by every
// CREATE and RENAME, also for objects that own no folder (streams, sinks)
// and in an in-memory database, so the same names are valid everywhere.
void CheckObjectName(const std::string& name, const char* kind);

// The inverse of ObjectFolderName; nullopt when `folder` is not the folder
// name of any name (e.g. "%2f" - lower-case hex - or "a/b").
std::optional<std::string> ObjectNameFromFolder(std::string_view folder);

// OK when `folder` is `root` + "/" + components (none empty, "." or ".."),
// each of them a real directory (not a symlink), so the real path of
// `folder` lies strictly inside the real path of `root`. NotFound when a
// component does not exist; InvalidArgument (with the reason) otherwise.
Status CheckOwnedFolder(const std::string& root, const std::string& folder);

// On object storage (s3:// root) the check is lexical and NotFound means no
// object lies under "folder/".
//
// Deletes `folder` and everything in it after CheckOwnedFolder(root, folder)
// succeeds; on object storage, every object whose key starts with "folder/". Symlinks inside are deleted as links, never followed. OK when the
// folder does not exist.
Status RemoveOwnedFolder(const std::string& root, const std::string& folder);

}  // namespace lakestream
