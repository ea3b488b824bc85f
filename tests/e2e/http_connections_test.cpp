// How the HTTP server handles connections, seen from raw sockets: idle keep-alive connections
// hold no worker, pipelined requests are each answered, idle connections are closed after the
// keep-alive timeout, stopping the server closes the connections it still has, and requests
// over the size limits get JSON errors that name the limit.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "http_fixture.hpp"
#include "running_server.hpp"

using permanode::test::FixtureReaderDsn;
using permanode::test::RunningServer;

namespace
{

const std::string kBlockPath =
    "/api/core/v2/blocks/0xf2174f3af8c862ba7b099c9ce56ecb5146c200521a8dbba9b0389ae645b10f1d";

// A TCP connection to the server that sends what it is told and reads to the end.
class RawConnection
{
  public:
    explicit RawConnection(int port)
    {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        timeval timeout{10, 0};
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<uint16_t>(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = connect(fd_, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0;
    }
    ~RawConnection() { close(fd_); }
    RawConnection(const RawConnection &) = delete;
    RawConnection &operator=(const RawConnection &) = delete;

    bool Connected() const { return connected_; }
    // Tells the server no more requests come (it may still send).
    void ShutdownWrite() { shutdown(fd_, SHUT_WR); }
    bool Send(const std::string &data)
    {
        return send(fd_, data.data(), data.size(), MSG_NOSIGNAL) ==
               static_cast<ssize_t>(data.size());
    }
    // Everything until the server closes the connection; `closed` tells whether it did (rather
    // than the 10 s receive timeout passing).
    std::string ReadToEnd(bool &closed)
    {
        std::string data;
        char buffer[65536];
        for (;;)
        {
            ssize_t n = recv(fd_, buffer, sizeof(buffer), 0);
            if (n <= 0)
            {
                closed = n == 0;
                return data;
            }
            data.append(buffer, static_cast<std::size_t>(n));
        }
    }

  private:
    int fd_ = -1;
    bool connected_ = false;
};

std::size_t CountOf(const std::string &text, const std::string &part)
{
    std::size_t count = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    {
        count++;
    }
    return count;
}

// The value of a metric in /metrics' text, or -1.
long long MetricValue(const std::string &metrics, const std::string &name)
{
    std::size_t at = metrics.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stoll(metrics.substr(at + name.size() + 2));
}

double SecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

// The server has 2 event loops. Were a connection to hold a thread, 4 idle keep-alive
// connections would hold both until their keep-alive timeout (5 s), and this request would wait
// that long.
TEST(HttpConnections, IdleConnectionsHoldNoWorker)
{
    RunningServer server(FixtureReaderDsn());
    std::vector<std::unique_ptr<RawConnection>> idle;
    for (int i = 0; i < 4; i++)
    {
        idle.push_back(std::make_unique<RawConnection>(server.Port()));
        ASSERT_TRUE(idle.back()->Connected());
    }
    httplib::Client client("127.0.0.1", server.Port());
    client.set_read_timeout(2, 0);
    auto start = std::chrono::steady_clock::now();
    auto result = client.Get(kBlockPath.c_str());
    ASSERT_TRUE(result) << "no answer within 2 s while 4 connections were idle";
    EXPECT_EQ(result->status, 200);
    EXPECT_LT(SecondsSince(start), 2.0);
}

// Two requests in one packet: the second is already read into the server's buffer when the
// first is answered, so no readiness event announces it; it must be answered all the same.
TEST(HttpConnections, PipelinedRequestsAreEachAnswered)
{
    RunningServer server(FixtureReaderDsn());
    RawConnection connection(server.Port());
    ASSERT_TRUE(connection.Connected());
    ASSERT_TRUE(connection.Send("GET " + kBlockPath +
                                " HTTP/1.1\r\nHost: localhost\r\n\r\n"
                                "GET /api/core/v2/blocks/0x12 HTTP/1.1\r\nHost: localhost\r\n"
                                "Connection: close\r\n\r\n"));
    bool closed = false;
    std::string responses = connection.ReadToEnd(closed);
    EXPECT_TRUE(closed);
    EXPECT_EQ(CountOf(responses, "HTTP/1.1 "), 2u) << responses;
    EXPECT_EQ(responses.rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
    EXPECT_NE(responses.find("HTTP/1.1 400 Bad Request\r\n"), std::string::npos);
}

// An idle keep-alive connection is closed once the keep-alive timeout (5 s) has passed.
TEST(HttpConnections, IdleConnectionsAreClosedAfterTheKeepAliveTimeout)
{
    RunningServer server(FixtureReaderDsn());
    RawConnection connection(server.Port());
    ASSERT_TRUE(connection.Connected());
    ASSERT_TRUE(connection.Send("GET " + kBlockPath + " HTTP/1.1\r\nHost: localhost\r\n\r\n"));
    auto start = std::chrono::steady_clock::now();
    bool closed = false;
    std::string response = connection.ReadToEnd(closed);
    EXPECT_EQ(response.rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
    EXPECT_NE(response.find("Keep-Alive: timeout=5"), std::string::npos) << response;
    EXPECT_TRUE(closed) << "still open after the 10 s receive timeout";
    double seconds = SecondsSince(start);
    EXPECT_GE(seconds, 4.0);
    EXPECT_LT(seconds, 9.0);
}

// Stopping the server closes the connections it holds, and does not wait for them.
TEST(HttpConnections, StopClosesOpenConnections)
{
    auto server = std::make_unique<RunningServer>(FixtureReaderDsn());
    RawConnection connection(server->Port());
    ASSERT_TRUE(connection.Connected());
    ASSERT_TRUE(connection.Send("GET " + kBlockPath + " HTTP/1.1\r\nHost: localhost\r\n\r\n"));
    auto start = std::chrono::steady_clock::now();
    // The response first, so the connection is parked when the server stops.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    server.reset();
    EXPECT_LT(SecondsSince(start), 3.0);
    bool closed = false;
    std::string response = connection.ReadToEnd(closed);
    EXPECT_TRUE(closed);
    EXPECT_EQ(CountOf(response, "HTTP/1.1 "), 1u);
}

// The resident memory of this process, in kB (the server runs in it).
long ResidentKb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmRSS:", 0) == 0)
        {
            return std::stol(line.substr(6));
        }
    }
    return -1;
}

// A client that sends many requests at once and does not read the answers: the server answers
// only as fast as it reads, instead of holding every answer (3000 x the OpenAPI document, about
// 88 MB) in memory; all of them arrive once it reads.
TEST(HttpConnections, AClientThatDoesNotReadIsNotBufferedWithoutBound)
{
    RunningServer server(FixtureReaderDsn());
    constexpr int kRequests = 3000;
    std::string request = "GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n";
    std::string all;
    for (int i = 0; i < kRequests; i++)
    {
        all += request;
    }
    auto one = server.Get("/api/openapi.json");
    ASSERT_TRUE(one);
    long before = ResidentKb();
    RawConnection connection(server.Port());
    ASSERT_TRUE(connection.Connected());
    ASSERT_TRUE(connection.Send(all + "GET /nothing HTTP/1.1\r\nConnection: close\r\n\r\n"));
    std::this_thread::sleep_for(std::chrono::seconds(2));
    long grown_kb = ResidentKb() - before;
#ifndef __SANITIZE_ADDRESS__
    EXPECT_LT(grown_kb, 16 * 1024) << "the server held the unread answers";
#else
    // AddressSanitizer keeps freed memory in quarantine, so the resident size says nothing of
    // what the server holds: the ordinary build's run checks the bound.
    (void)grown_kb;
#endif
    bool closed = false;
    std::string responses = connection.ReadToEnd(closed);
    EXPECT_TRUE(closed);
    EXPECT_EQ(CountOf(responses, "HTTP/1.1 200 OK\r\n"), static_cast<std::size_t>(kRequests));
    // In order: the closing request's 404 last.
    EXPECT_EQ(responses.compare(responses.rfind("HTTP/1.1 "), 12, "HTTP/1.1 404"), 0);
}

// A client that sends its requests and then closes its side (as `nc` does at the end of its
// input) still gets every answer, then the server closes; an unfinished last request is dropped.
TEST(HttpConnections, AHalfClosedClientGetsEveryAnswer)
{
    RunningServer server(FixtureReaderDsn());
    // About 12 MB of answers: more than the sockets buffer, so the server sees the end of the
    // input while it still has answers to give.
    constexpr int kRequests = 400;
    std::string all;
    for (int i = 0; i < kRequests; i++)
    {
        all += "GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }
    RawConnection connection(server.Port());
    ASSERT_TRUE(connection.Connected());
    ASSERT_TRUE(connection.Send(all + "GET /api/open"));
    connection.ShutdownWrite();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    bool closed = false;
    std::string responses = connection.ReadToEnd(closed);
    EXPECT_TRUE(closed);
    EXPECT_EQ(CountOf(responses, "HTTP/1.1 200 OK\r\n"), static_cast<std::size_t>(kRequests));
    EXPECT_EQ(CountOf(responses, "HTTP/1.1 "), static_cast<std::size_t>(kRequests));
}

// Requests over the limits: the answer is a JSON error naming the limit, and the server goes on.
TEST(HttpConnections, OversizedRequestsGetJsonErrorsNamingTheLimit)
{
    RunningServer server(FixtureReaderDsn());
    httplib::Client client("127.0.0.1", server.Port());
    client.set_read_timeout(10, 0);
    auto expect_error = [](const httplib::Result &result, int status, const std::string &message)
    {
        ASSERT_TRUE(result);
        EXPECT_EQ(result->status, status);
        EXPECT_EQ(result->get_header_value("Content-Type"), "application/json");
        auto body = nlohmann::json::parse(result->body);
        EXPECT_EQ(body["error"]["code"], std::to_string(status));
        EXPECT_EQ(body["error"]["message"], message) << result->body;
    };
    expect_error(client.Get(("/api/core/v2/blocks/0x" + std::string(9000, 'a')).c_str()), 414,
                 "request URI longer than 8192 bytes");
    // The server's default limit is 1000000 bytes (IRI's maxBodyLength).
    expect_error(client.Post("/api/core/v2/blocks/0x12", std::string(1000001, 'a'), "text/plain"),
                 413, "request body larger than 1000000 bytes");
    expect_error(client.Get("/api/core/v2/info", {{"X-Padding", std::string(9000, 'b')}}), 400,
                 "header line longer than 8192 bytes");
    expect_error(client.Get("/api/core/v2/nothing"), 404, "no route /api/core/v2/nothing");
    // A route's path under a method it does not serve: 405, naming (and listing in Allow) those
    // it does.
    auto deleted = client.Delete("/api/core/v2/info");
    expect_error(deleted, 405,
                 "method DELETE is not allowed on /api/core/v2/info (allowed: GET, HEAD)");
    EXPECT_EQ(deleted->get_header_value("Allow"), "GET, HEAD");
    expect_error(client.Post("/api/core/v2/info", "{}", "application/json"), 405,
                 "method POST is not allowed on /api/core/v2/info (allowed: GET, HEAD)");
    expect_error(client.Delete("/api/core/v2/nothing"), 404, "no route /api/core/v2/nothing");
    auto info = client.Get("/api/core/v2/info");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->status, 200);
}

// Past --max-clients a connection is answered 503 with a JSON error naming the limit (and the
// server does not spin on a listening socket it cannot drain); the connections within the limit
// go on being served, and a place that frees up is taken again.
TEST(HttpConnections, ConnectionsPastTheLimitGetA503NamingIt)
{
    RunningServer server(FixtureReaderDsn(),
                         [](permanode::http::ServerOptions &o) { o.max_clients = 2; });
    // A keep-alive client, once served: the server counts a closed connection out a moment
    // after the client closed it, so a place may take a few tries to free up.
    auto served_client = [&]() -> std::unique_ptr<httplib::Client>
    {
        auto client = std::make_unique<httplib::Client>("127.0.0.1", server.Port());
        client->set_keep_alive(true);
        client->set_read_timeout(10, 0);
        for (int i = 0; i < 100; i++)
        {
            auto result = client->Get("/api/core/v2/info");
            if (result && result->status == 200)
            {
                return client;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return nullptr;
    };
    auto first = served_client(), second = served_client();
    ASSERT_TRUE(first && second);
    long long open = -1;
    for (int i = 0; i < 100 && open != 2; i++)
    {
        auto metrics = second->Get("/metrics");
        ASSERT_TRUE(metrics);
        open = MetricValue(metrics->body, "permanode_http_clients_open");
    }
    EXPECT_EQ(open, 2);

    httplib::Client third("127.0.0.1", server.Port());
    third.set_read_timeout(10, 0);
    auto refused = third.Get("/api/core/v2/info");
    ASSERT_TRUE(refused) << "a connection past the limit was closed without an answer";
    EXPECT_EQ(refused->status, 503);
    EXPECT_EQ(refused->get_header_value("Content-Type"), "application/json");
    auto body = nlohmann::json::parse(refused->body);
    EXPECT_EQ(body["error"]["code"], "503");
    EXPECT_EQ(body["error"]["message"],
              "too many connections: this server serves at most 2 at once (--max-clients)");

    auto block = first->Get(kBlockPath.c_str());
    ASSERT_TRUE(block);
    EXPECT_EQ(block->status, 200);
    auto metrics = second->Get("/metrics");
    ASSERT_TRUE(metrics);
    EXPECT_GE(MetricValue(metrics->body, "permanode_http_clients_refused_total"), 1);

    first->stop();
    first.reset();
    EXPECT_TRUE(served_client()) << "the place the first client left was not served again";
}
