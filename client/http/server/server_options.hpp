// The server's command-line options, shared by `permanode serve` and permanode-serve (each adds
// its own --dsn).
#pragma once

#include <CLI/CLI.hpp>

#include "server/server.hpp"

namespace permanode::http
{

void AddServerOptions(CLI::App &app, ServerOptions &options);

} // namespace permanode::http
