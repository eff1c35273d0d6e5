// Subcommands of the `lakestream` binary other than the SQL shell.
//
// main() hands over when argv[1] is "run", "sink" or "serve"; argv is passed whole
// (argv[0] is the program, argv[1] the subcommand name) so each subcommand
// parses its own options. The return value is the process exit code.
//
// Placeholders for now: each prints
//   lakestream <name>: not supported yet: <feature> (issue N)
// to stderr and returns 2. The issues that build pipelines and sinks replace
// the bodies in subcommands.cpp (or move them to their own files).
#pragma once

namespace lakestream {

// `lakestream run PIPELINE.sql [--db DIR] [--once | --continuous] [--interval 1s]`:
// runs a DLT-style pipeline (run_command.cpp).
int RunPipelineCommand(int argc, char** argv);
// `lakestream sink DB_DIR NAME [--follow]`: runs a sink (sink_command.cpp).
int RunSinkCommand(int argc, char** argv);
// `lakestream serve [DB_DIR] [--listen HOST:PORT] ...`: the PostgreSQL wire
// protocol server (serve_command.cpp, docs/server.md).
int RunServeCommand(int argc, char** argv);

}  // namespace lakestream
