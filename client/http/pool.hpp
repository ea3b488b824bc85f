// A fixed pool of database clients, one per server thread, connected on first use and replaced
// after a connection error.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "permanode/client.hpp"

namespace permanode::http
{

struct PoolStats
{
    int size = 0;
    int in_use = 0;
    int connected = 0;
    long long acquire_timeouts = 0;
    long long connect_failures = 0;
};

class Pool
{
  public:
    Pool(std::string dsn, int size, std::chrono::milliseconds acquire_timeout);

    // A slot held until destruction; Get() connects it on first use.
    class Lease
    {
      public:
        explicit Lease(Pool &pool) : pool_(&pool) {}
        ~Lease();
        Lease(const Lease &) = delete;
        Lease &operator=(const Lease &) = delete;
        // The client of the slot; throws client::Error ("08006") when the database is
        // unreachable and PoolTimeout when no slot frees up in time.
        client::Client &Get();
        // Drops the slot's connection (after a connection error); the next lease reconnects.
        void Discard();

      private:
        Pool *pool_;
        int slot_ = -1;
    };

    PoolStats Stats();

  private:
    int AcquireSlot();
    void ReleaseSlot(int slot);

    std::string dsn_;
    std::chrono::milliseconds acquire_timeout_;
    std::mutex mutex_;
    std::condition_variable freed_;
    std::vector<std::unique_ptr<client::Client>> clients_;
    std::vector<bool> busy_;
    long long acquire_timeouts_ = 0;
    long long connect_failures_ = 0;
};

// No pooled connection freed up within the acquire timeout.
class PoolTimeout : public std::runtime_error
{
  public:
    PoolTimeout() : std::runtime_error("no database connection available: the pool is busy") {}
};

} // namespace permanode::http
