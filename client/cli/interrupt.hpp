// Ctrl-C and SIGTERM: long commands poll a flag and stop cleanly at their next safe point.
#pragma once

namespace permanode::cli
{

// Installs SIGINT and SIGTERM handlers that only set the flag.
void InstallInterruptHandlers();
bool Interrupted();

} // namespace permanode::cli
