// A permanode HTTP server on a free loopback port, serving from a thread, for end-to-end tests.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <httplib.h>

#include "server/server.hpp"

namespace permanode::test
{

// A server on a free loopback port, serving from a thread.
class RunningServer
{
  public:
    // `adjust` may change the options (2 loops of 1 database connection each, by default).
    explicit RunningServer(const std::string &dsn,
                           const std::function<void(http::ServerOptions &)> &adjust = {})
    {
        http::ServerOptions options;
        options.dsn = dsn;
        options.port = 0;
        options.threads = 2;
        options.database_connections = 1;
        if (adjust)
        {
            adjust(options);
        }
        server_ = std::make_unique<http::Server>(options);
        EXPECT_TRUE(server_->Bind());
        thread_ = std::thread([this] { server_->Listen(); });
        client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->Port());
        client_->set_read_timeout(10, 0);
        for (int i = 0; i < 100 && !client_->Get("/api/openapi.json"); i++)
        {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    ~RunningServer()
    {
        server_->Stop();
        thread_.join();
    }
    int Port() const { return server_->Port(); }
    httplib::Result Get(const std::string &path, const httplib::Headers &headers = {})
    {
        return client_->Get(path.c_str(), headers);
    }

  private:
    std::unique_ptr<http::Server> server_;
    std::thread thread_;
    std::unique_ptr<httplib::Client> client_;
};

} // namespace permanode::test
