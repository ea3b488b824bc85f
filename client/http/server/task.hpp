// Coroutines for request handlers: Task<T> is a lazily started coroutine that a caller awaits
// (co_await), and Spawn starts a Task<void> from ordinary code and calls back once it is done.
// A handler suspends only while it waits for the database; the event loop resumes it when the
// result arrives, so one thread serves many requests at once without blocking on any.
#pragma once

#include <coroutine>
#include <exception>
#include <functional>
#include <optional>
#include <utility>

namespace permanode::http
{

template <typename T> class Task;

namespace detail
{

// Resumes the awaiting coroutine when a task finishes (symmetric transfer: no stack growth).
struct FinalAwaiter
{
    bool await_ready() noexcept { return false; }
    template <typename Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> finished) noexcept
    {
        auto continuation = finished.promise().continuation;
        return continuation ? continuation : std::noop_coroutine();
    }
    void await_resume() noexcept {}
};

struct PromiseBase
{
    std::coroutine_handle<> continuation;
    std::exception_ptr error;
    std::suspend_always initial_suspend() noexcept { return {}; }
    FinalAwaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() noexcept { error = std::current_exception(); }
};

template <typename T> struct Promise : PromiseBase
{
    std::optional<T> value;
    Task<T> get_return_object() noexcept;
    template <typename U> void return_value(U &&v) { value.emplace(std::forward<U>(v)); }
    T Take()
    {
        if (error)
        {
            std::rethrow_exception(error);
        }
        return std::move(*value);
    }
};

template <> struct Promise<void> : PromiseBase
{
    Task<void> get_return_object() noexcept;
    void return_void() noexcept {}
    void Take()
    {
        if (error)
        {
            std::rethrow_exception(error);
        }
    }
};

} // namespace detail

template <typename T = void> class [[nodiscard]] Task
{
  public:
    using promise_type = detail::Promise<T>;
    using Handle = std::coroutine_handle<promise_type>;

    explicit Task(Handle handle) noexcept : handle_(handle) {}
    Task(Task &&other) noexcept : handle_(std::exchange(other.handle_, {})) {}
    Task &operator=(Task &&other) noexcept
    {
        std::swap(handle_, other.handle_);
        return *this;
    }
    Task(const Task &) = delete;
    Task &operator=(const Task &) = delete;
    ~Task()
    {
        if (handle_)
        {
            handle_.destroy();
        }
    }

    // co_await task: runs it, and resumes the awaiting coroutine with its result once done.
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept
    {
        handle_.promise().continuation = awaiting;
        return handle_;
    }
    T await_resume() { return handle_.promise().Take(); }

  private:
    Handle handle_;
};

namespace detail
{
template <typename T> Task<T> Promise<T>::get_return_object() noexcept
{
    return Task<T>(Task<T>::Handle::from_promise(*this));
}
inline Task<void> Promise<void>::get_return_object() noexcept
{
    return Task<void>(Task<void>::Handle::from_promise(*this));
}
} // namespace detail

// Runs `task` until its first suspension (or to its end) and returns; `done` is called, with
// the exception the task ended with (or null), once it has finished, on whichever thread
// resumed it last.
void Spawn(Task<void> task, std::function<void(std::exception_ptr)> done);

} // namespace permanode::http
