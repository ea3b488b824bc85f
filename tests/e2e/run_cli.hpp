// Running the `permanode` CLI from a test as a user would: through the shell, capturing its
// output and exit code. PERMANODE_CLI_PATH is set by tests/CMakeLists.txt.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace permanode::test
{

struct CliResult
{
    int exit_code;
    std::string output; // stdout and stderr
};

// Runs the CLI with arguments (shell syntax), capturing stdout and stderr.
inline CliResult RunCli(const std::string &args)
{
    std::string command = fmt::format("'{}' {} 2>&1", PERMANODE_CLI_PATH, args);
    FILE *pipe = popen(command.c_str(), "r");
    CliResult result{-1, {}};
    if (pipe == nullptr)
        return result;
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), buffer.size(), pipe) != nullptr)
        result.output += buffer.data();
    int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

} // namespace permanode::test
