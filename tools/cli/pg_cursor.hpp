// SQL cursors of `lakestream serve` (docs/server.md): the text of DECLARE,
// FETCH, MOVE and CLOSE, which the server answers itself (psycopg's named
// cursors, `pandas.read_sql(..., chunksize=)` through them, psql's
// FETCH_COUNT). Forward-only: a scrollable cursor and every backward or
// absolute fetch are refused (0A000, "not supported yet").
//
//   DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [NO SCROLL] CURSOR [WITH HOLD | WITHOUT HOLD] FOR query
//   FETCH [NEXT | FORWARD | count | ALL | FORWARD count | FORWARD ALL] [FROM | IN] name
//   MOVE  (the same directions) [FROM | IN] name
//   CLOSE name | ALL
//
// A name is an identifier, lower-cased, or a double-quoted one, kept as written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lakestream::pg {

struct CursorCommand {
  enum class Kind { DECLARE, FETCH, MOVE, CLOSE };
  Kind kind = Kind::FETCH;
  std::string name;     // "" for CLOSE ALL
  bool all = false;     // FETCH/MOVE ALL, CLOSE ALL
  int64_t count = 1;    // FETCH/MOVE: rows, > 0 unless all
  std::string query;    // DECLARE: the text after FOR
  bool hold = false;    // DECLARE ... WITH HOLD
  bool binary = false;  // DECLARE BINARY: rows in binary unless the FETCH asks otherwise
};

// The command `sql` spells, or nullopt when it starts with none of the four
// keywords. Throws SqlError: 42601 for a malformed command, 0A000 for a
// scrollable cursor or a backward / absolute / zero-row fetch.
std::optional<CursorCommand> ParseCursorCommand(const std::string& sql);

}  // namespace lakestream::pg
