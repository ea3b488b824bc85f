// A one-line progress display on stderr for long work: milestones, blocks/s and, when the total
// is known, a bar and an ETA. Silent unless stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace permanode::cli
{

class Progress
{
  public:
    // total: the amount of work (e.g. input bytes) the `done` figure counts towards; 0 if unknown.
    // enabled: draw at all (the caller decides: a terminal, and not --quiet).
    Progress(std::string label, std::uint64_t total, bool enabled);

    // Redraws at most every 200 ms.
    void Update(std::uint64_t done, std::uint64_t milestones, std::uint64_t blocks);
    // Clears the line so that the summary prints on a clean one.
    void Finish();

    // Whether stderr is a terminal.
    static bool StderrIsTerminal();

  private:
    std::string label_;
    std::uint64_t total_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_draw_;
};

// "1h02m", "3m07s", "12s"
std::string FormatDuration(double seconds);

} // namespace permanode::cli
