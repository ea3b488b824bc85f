// A response body sent while it is made (chunked transfer encoding), for answers too long to
// hold, such as an export of a long history: the handler starts it with the status and headers,
// then awaits each piece, which resumes it once the connection has sent what it held. So the
// server holds at most one piece per stream, however long the body and however slow the client.
#pragma once

#include <coroutine>
#include <string>

namespace httplib
{
struct Response;
}

namespace permanode::http
{

class BodyStream
{
  public:
    virtual ~BodyStream() = default;

    // Sends the status line and headers of `head` (not its body); the body follows in chunks.
    virtual void Start(const httplib::Response &head) = 0;
    bool Started() const { return started_; }
    bool Ended() const { return ended_; }

    class Awaiter
    {
      public:
        Awaiter(BodyStream &stream, std::string piece) : stream_(stream), piece_(std::move(piece))
        {
        }
        bool await_ready() const noexcept { return false; }
        bool await_suspend(std::coroutine_handle<> handle)
        {
            return !stream_.Send(std::move(piece_), handle);
        }
        // Whether the client is still there to take more.
        bool await_resume() const { return !stream_.Gone(); }

      private:
        BodyStream &stream_;
        std::string piece_;
    };
    // Sends a piece of the body (after Start): co_await it; false when the client has gone.
    Awaiter Write(std::string piece) { return Awaiter(*this, std::move(piece)); }
    // Sends the last chunk: the body is complete.
    virtual void End() = 0;

  protected:
    // Sends `piece` as a chunk: true when it is sent (or the client has gone), else `resume` is
    // resumed once it is.
    virtual bool Send(std::string piece, std::coroutine_handle<> resume) = 0;
    virtual bool Gone() const = 0;

    bool started_ = false;
    bool ended_ = false;
};

} // namespace permanode::http
