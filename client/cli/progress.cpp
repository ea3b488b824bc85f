// The progress line.
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace permanode::cli
{

std::string FormatDuration(double seconds)
{
    auto s = static_cast<long>(seconds + 0.5);
    if (s >= 3600)
        return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
    if (s >= 60)
        return fmt::format("{}m{:02}s", s / 60, s % 60);
    return fmt::format("{}s", s);
}

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled),
      start_(std::chrono::steady_clock::now()), last_draw_(start_)
{
}

bool Progress::StderrIsTerminal()
{
    return isatty(STDERR_FILENO) == 1;
}

void Progress::Update(std::uint64_t done, std::uint64_t milestones, std::uint64_t blocks)
{
    if (!enabled_)
        return;
    auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_draw_ < std::chrono::milliseconds(200))
        return;
    last_draw_ = now;
    double elapsed = std::chrono::duration<double>(now - start_).count();
    double rate = elapsed > 0 ? blocks / elapsed : 0;
    std::string line = fmt::format("{} {} milestones, {} blocks, {:.0f} blocks/s", label_,
                                   milestones, blocks, rate);
    if (total_ > 0 && done <= total_)
    {
        double fraction = static_cast<double>(done) / static_cast<double>(total_);
        constexpr int kWidth = 24;
        int filled = static_cast<int>(fraction * kWidth);
        std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
        line = fmt::format("[{}] {:3.0f}% {}", bar, fraction * 100, line);
        if (fraction > 0.01 && elapsed > 1)
            line += ", ETA " + FormatDuration(elapsed * (1 - fraction) / fraction);
    }
    // \r and "clear to end of line" keep the display on one terminal line.
    std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void Progress::Finish()
{
    if (enabled_ && drawn_)
    {
        std::fprintf(stderr, "\r\x1b[K");
        std::fflush(stderr);
    }
    drawn_ = false;
}

} // namespace permanode::cli
