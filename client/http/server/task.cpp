// Spawn: the one coroutine that is not awaited by another.
#include "server/task.hpp"

namespace permanode::http
{
namespace
{

// A coroutine that starts at once and frees itself when it ends.
struct Detached
{
    struct promise_type
    {
        Detached get_return_object() noexcept { return {}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        void unhandled_exception() noexcept { std::terminate(); } // Drive catches everything
    };
};

Detached Drive(Task<void> task, std::function<void(std::exception_ptr)> done)
{
    std::exception_ptr error;
    try
    {
        co_await std::move(task);
    }
    catch (...)
    {
        error = std::current_exception();
    }
    done(error);
}

} // namespace

void Spawn(Task<void> task, std::function<void(std::exception_ptr)> done)
{
    Drive(std::move(task), std::move(done));
}

} // namespace permanode::http
