// The interrupt flag.
#include "interrupt.hpp"

#include <csignal>

namespace permanode::cli
{
namespace
{

volatile std::sig_atomic_t interrupted = 0;

void OnSignal(int)
{
    interrupted = 1;
}

} // namespace

void InstallInterruptHandlers()
{
    struct sigaction action = {};
    action.sa_handler = OnSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

bool Interrupted()
{
    return interrupted != 0;
}

} // namespace permanode::cli
