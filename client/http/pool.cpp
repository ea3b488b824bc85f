// The connection pool.
#include "pool.hpp"

namespace permanode::http
{

Pool::Pool(std::string dsn, int size, std::chrono::milliseconds acquire_timeout)
    : dsn_(std::move(dsn)), acquire_timeout_(acquire_timeout), clients_(size), busy_(size, false)
{
}

int Pool::AcquireSlot()
{
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;)
    {
        for (std::size_t i = 0; i < busy_.size(); i++)
        {
            // Prefer a connected free slot; an unconnected one only when none is.
            if (!busy_[i] && clients_[i])
            {
                busy_[i] = true;
                return static_cast<int>(i);
            }
        }
        for (std::size_t i = 0; i < busy_.size(); i++)
        {
            if (!busy_[i])
            {
                busy_[i] = true;
                return static_cast<int>(i);
            }
        }
        if (freed_.wait_for(lock, acquire_timeout_) == std::cv_status::timeout)
        {
            acquire_timeouts_++;
            throw PoolTimeout();
        }
    }
}

void Pool::ReleaseSlot(int slot)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        busy_[slot] = false;
    }
    freed_.notify_one();
}

PoolStats Pool::Stats()
{
    std::lock_guard<std::mutex> lock(mutex_);
    PoolStats stats;
    stats.size = static_cast<int>(busy_.size());
    for (std::size_t i = 0; i < busy_.size(); i++)
    {
        stats.in_use += busy_[i] ? 1 : 0;
        stats.connected += clients_[i] ? 1 : 0;
    }
    stats.acquire_timeouts = acquire_timeouts_;
    stats.connect_failures = connect_failures_;
    return stats;
}

Pool::Lease::~Lease()
{
    if (slot_ >= 0)
    {
        pool_->ReleaseSlot(slot_);
    }
}

client::Client &Pool::Lease::Get()
{
    if (slot_ < 0)
    {
        slot_ = pool_->AcquireSlot();
    }
    // Only this lease uses its slot's client while it holds the slot; the pool's mutex guards
    // the pointer itself, which Stats() reads.
    auto &client = pool_->clients_[slot_];
    if (client && !client->IsOpen())
    {
        Discard();
    }
    if (!client)
    {
        std::unique_ptr<client::Client> fresh;
        try
        {
            fresh = std::make_unique<client::Client>(pool_->dsn_);
        }
        catch (const client::Error &)
        {
            std::lock_guard<std::mutex> lock(pool_->mutex_);
            pool_->connect_failures_++;
            throw;
        }
        std::lock_guard<std::mutex> lock(pool_->mutex_);
        client = std::move(fresh);
    }
    return *client;
}

void Pool::Lease::Discard()
{
    if (slot_ >= 0)
    {
        std::unique_ptr<client::Client> old;
        {
            std::lock_guard<std::mutex> lock(pool_->mutex_);
            old = std::move(pool_->clients_[slot_]);
        }
    }
}

} // namespace permanode::http
