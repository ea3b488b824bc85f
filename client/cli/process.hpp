// Running external programs (initdb, pg_ctl) from the CLI, optionally as another OS user.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace permanode::cli
{

// Runs argv[0] (looked up in PATH) with its arguments, waits for it and returns its exit code.
// When run_as is not empty and we are root, the program runs as that user through runuser(1).
// Standard output and error go to log_path when it is not empty.
int RunProgram(const std::vector<std::string> &argv, const std::string &run_as = {},
               const std::string &log_path = {});

// The soft open-files limit services get by default (systemd's, and PAM's for runuser).
inline constexpr unsigned long kServiceOpenFiles = 1024;

// Runs run() with this process's soft open-files limit at `soft` (at most the hard limit), so
// that programs it starts inherit it; the limit is put back after.
int WithSoftOpenFilesLimit(unsigned long soft, const std::function<int()> &run);

// Whether this process runs as root.
bool IsRoot();

// Creates the unprivileged system user `name` unless it exists; returns its uid and gid.
void EnsureSystemUser(const std::string &name, unsigned &uid, unsigned &gid);

} // namespace permanode::cli
