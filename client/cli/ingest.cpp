// The ingest loop: read a line, check it, send it on the least busy of `jobs` connections; keep
// up to pipeline_depth milestones in flight on each; account each answer; stop at the first bad
// line unless --skip-bad.
//
// Why several connections: a milestone's work in the server runs in one backend, on one core.
// Different milestones are independent transactions (any order is allowed), so the backends of
// two connections use two cores. Where concurrent milestones write the same rows (hints, the
// output locator of an output one creates and the other spends) the second waits for the first
// to commit, and then sees its rows; a deadlock between them (two shared rows taken in opposite
// orders) rolls one back, and it is sent again.
#include "ingest.hpp"

#include "analytics.hpp"
#include "bundle.hpp"
#include "bundle_check.hpp"
#include "commands.hpp"
#include "ingest_connection.hpp"
#include "interrupt.hpp"
#include "progress.hpp"

#include "codec/hex.hpp"
#include "codec/error_position.hpp"
#include "codec/ids.hpp"

#include "permanode/replica_set.hpp"

#include <poll.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

namespace permanode::cli
{
namespace
{

// Reads the input line by line, counting lines and bytes.
class LineReader
{
  public:
    explicit LineReader(const std::string &path)
    {
        if (path == "-")
        {
            file_ = stdin;
            name_ = "<stdin>";
            return;
        }
        file_ = std::fopen(path.c_str(), "rb");
        if (file_ == nullptr)
            throw std::runtime_error("cannot open " + path);
        name_ = path;
        struct stat st = {};
        if (fstat(fileno(file_), &st) == 0 && S_ISREG(st.st_mode))
            total_bytes_ = static_cast<std::uint64_t>(st.st_size);
    }
    ~LineReader()
    {
        if (file_ != stdin)
            std::fclose(file_);
        std::free(buffer_);
    }
    LineReader(const LineReader &) = delete;
    LineReader &operator=(const LineReader &) = delete;

    // The next line without its newline; false at the end.
    bool Next(std::string_view &line)
    {
        ssize_t length = getline(&buffer_, &capacity_, file_);
        if (length < 0)
        {
            if (std::ferror(file_))
                throw std::runtime_error("cannot read " + name_);
            return false;
        }
        ++line_number_;
        bytes_read_ += static_cast<std::uint64_t>(length);
        while (length > 0 && (buffer_[length - 1] == '\n' || buffer_[length - 1] == '\r'))
            --length;
        line = std::string_view(buffer_, static_cast<std::size_t>(length));
        return true;
    }

    const std::string &Name() const { return name_; }
    std::uint64_t LineNumber() const { return line_number_; }
    std::uint64_t BytesRead() const { return bytes_read_; }
    std::uint64_t TotalBytes() const { return total_bytes_; } // 0 when unknown (a pipe)

  private:
    std::FILE *file_ = nullptr;
    std::string name_;
    char *buffer_ = nullptr;
    std::size_t capacity_ = 0;
    std::uint64_t line_number_ = 0;
    std::uint64_t bytes_read_ = 0;
    std::uint64_t total_bytes_ = 0;
};

// A milestone sent and not yet answered.
struct Pending
{
    int attempts = 1;
    std::uint64_t line = 0;
    MilestoneBundle bundle;
    std::string text; // the line, for the rejects file
};

// Where rejected lines go: stderr always, the rejects file when asked for.
class Rejects
{
  public:
    explicit Rejects(const std::string &path)
    {
        if (path.empty())
            return;
        out_ = std::make_unique<std::ofstream>(path, std::ios::trunc);
        if (!*out_)
            throw std::runtime_error("cannot write " + path);
    }

    // Reports `what` as FILE:LINE: what.
    void Report(const std::string &file, std::uint64_t line, std::optional<std::uint32_t> index,
                const std::string &what, std::string_view text)
    {
        fmt::print(stderr, "{}:{}: {}\n", file, line, what);
        if (!out_)
            return;
        nlohmann::json entry = {{"file", file}, {"line", line}, {"error", what}};
        entry["milestone_index"] = index ? nlohmann::json(*index) : nlohmann::json();
        entry["bundle"] = std::string(text);
        *out_ << entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        out_->flush();
    }

  private:
    std::unique_ptr<std::ofstream> out_;
};

// The milestone index of a line that did not parse, when it is readable at all.
std::optional<std::uint32_t> IndexOf(std::string_view text)
{
    constexpr std::string_view kKey = "\"milestone_index\"";
    std::size_t at = text.find(kKey);
    if (at == std::string_view::npos)
        return std::nullopt;
    at = text.find_first_not_of(" \t:", at + kKey.size());
    std::uint64_t value = 0;
    std::size_t digits = 0;
    for (; at < text.size() && digits < 10 && text[at] >= '0' && text[at] <= '9'; ++at, ++digits)
        value = value * 10 + static_cast<std::uint64_t>(text[at] - '0');
    if (digits == 0 || value > UINT32_MAX)
        return std::nullopt;
    return static_cast<std::uint32_t>(value);
}

// The server names a bad block by its position in the cone (in the error's context field); name
// it by its ID as well, as the client-side checks do.
std::string DescribeServerError(const Pending &pending, const MilestoneOutcome &outcome)
{
    std::string what = "milestone " + std::to_string(pending.bundle.milestone_index) + ": ";
    const pq::ServerError &error = *outcome.error;
    std::optional<std::size_t> index = error.Position(codec::kConeBlock);
    if (index && *index < pending.bundle.blocks.size())
        what += "block " + std::to_string(*index) + " (" +
                codec::ToHex(codec::ComputeBlockId(pending.bundle.blocks[*index].bytes)) + "): ";
    what += error.message() + " (SQLSTATE " + error.sqlstate() + ")";
    if (!error.detail().empty())
        what += ": " + error.detail();
    return what;
}

// Class 22, data exceptions (22P02, 22023, ...), and 23505: a block or output the input already
// gave in another milestone.
bool IsDataError(const std::string &sqlstate)
{
    return sqlstate.rfind("22", 0) == 0 || sqlstate == "23505";
}

constexpr int kMaxAttempts = 5;

void PrintSummary(const IngestSummary &s, bool interrupted)
{
    double rate = s.seconds > 0 ? s.blocks / s.seconds : 0;
    fmt::print("{}ingested {} milestones, {} already present, {} skipped: {} blocks, {} outputs, "
               "{} spent in {:.1f} s ({:.0f} blocks/s)\n",
               interrupted ? "interrupted: " : "", s.ingested, s.already_present, s.skipped,
               s.blocks, s.outputs, s.spent, s.seconds, rate);
}

// The ranges between ingested milestones that nothing has filled yet.
void PrintGaps(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::nontransaction tx(conn);
    auto gaps = tx.exec("SELECT from_milestone, to_milestone FROM permanode.sync_gaps()");
    if (gaps.empty())
        return;
    std::string list;
    for (std::size_t i = 0; i < gaps.size() && i < 5; ++i)
        list += fmt::format("{}{}-{}", i ? ", " : "", gaps[i][0].as<long>(), gaps[i][1].as<long>());
    fmt::print("sync gaps: {}{} (SELECT * FROM permanode.sync_gaps())\n", list,
               gaps.size() > 5 ? fmt::format(" and {} more", gaps.size() - 5) : "");
}

// Makes every commit acknowledged so far durable: a transaction that takes an XID commits with
// synchronous_commit on, and flushing its commit record flushes all WAL before it, including the
// other connections' commits.
void FlushCommits(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    tx.exec0("SET LOCAL synchronous_commit = on");
    tx.exec1("SELECT pg_current_xact_id()");
    tx.commit();
}

// After a successful ingest: the maintenance job (permanode.maintain(): the archiving policy,
// pending expiry, the finished days' analytics rolled up, partitions ahead). It needs
// permanode_admin; other logins skip it.
int Maintain(const std::string &dsn)
{
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    pqxx::field allowed =
        tx.exec1("SELECT CASE WHEN to_regprocedure('permanode.maintain()') IS NOT NULL THEN "
                 "has_function_privilege('permanode.maintain()', 'EXECUTE') END")[0];
    if (allowed.is_null() || !allowed.as<bool>())
    {
        fmt::print("notice: maintenance skipped: {}\n",
                   allowed.is_null()
                       ? "this database has no permanode.maintain()"
                       : fmt::format("{} may not run permanode.maintain()", conn.username()));
        return kOk;
    }
    tx.exec0("SET LOCAL client_min_messages = warning");
    for (const auto &row : tx.exec("SELECT task, done FROM permanode.maintain()"))
    {
        std::string task = row[0].as<std::string>();
        long done = row[1].as<long>();
        if (task == "archived rows" && done > 0)
            fmt::print("maintenance: archived {} rows (policy archive_older_than)\n", done);
        if (task == "rolled up days" && done > 0)
            fmt::print("maintenance: rolled up the analytics of {} finished day{}\n", done,
                       done == 1 ? "" : "s");
    }
    tx.commit();
    return kOk;
}

// One run of the ingest loop: the input, the connections, the milestones in flight on each, and
// what has come of them so far.
class IngestRun
{
  public:
    IngestRun(const std::string &dsn, const IngestOptions &options, IngestSummary &summary)
        : options_(options), summary_(summary), reader_(options.input),
          rejects_(options.rejects_path), jobs_(std::max(1, options.jobs)),
          depth_(std::max(1, options.pipeline_depth))
    {
        for (int j = 0; j < jobs_; ++j)
            conns_.push_back(std::make_unique<IngestConnection>(dsn, options.synchronous_commit));
        InstallInterruptHandlers();
        progress_ = std::make_unique<Progress>("ingest", reader_.TotalBytes(),
                                               options.progress && Progress::StderrIsTerminal());
        start_ = std::chrono::steady_clock::now();
        pending_.resize(static_cast<std::size_t>(jobs_));
    }

    // Sends and accounts milestones until the input ends, a bad one or a database error stops
    // the run, or Ctrl-C; returns kOk, kBadInput or kDatabase.
    int Run()
    {
        for (;;)
        {
            SendWhileRoom();
            int from = NextAnswered();
            if (from < 0)
                break;
            MilestoneOutcome outcome = conns_[from]->Receive();
            Pending done = std::move(pending_[from].front());
            pending_[from].pop_front();
            // Concurrent milestones that took shared rows in opposite orders: the server rolled
            // this one back whole, so sending it again is safe.
            if (!outcome.ok() && client::IsTransientConflict(outcome.error->sqlstate()) &&
                done.attempts < kMaxAttempts)
            {
                done.attempts++;
                conns_[from]->Send(done.bundle);
                pending_[from].push_back(std::move(done));
                continue;
            }
            Account(outcome, done);
            progress_->Update(reader_.BytesRead(), summary_.ingested + summary_.already_present,
                              summary_.blocks);
        }
        progress_->Finish();
        summary_.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        return exit_code_;
    }

  private:
    // Reads lines and sends their milestones while a connection has room, until the input ends
    // or the run stops sending.
    void SendWhileRoom()
    {
        std::string_view line;
        for (int target = LeastBusy(); sending_ && target >= 0; target = LeastBusy())
        {
            if (Interrupted() || !reader_.Next(line))
            {
                sending_ = false;
                break;
            }
            std::optional<Pending> next = ReadMilestone(line);
            if (!next)
                continue;
            conns_[target]->Send(next->bundle);
            pending_[target].push_back(std::move(*next));
        }
    }

    // The milestone of a line, checked; nothing for a blank line or a rejected one.
    std::optional<Pending> ReadMilestone(std::string_view line)
    {
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            return std::nullopt; // blank lines are allowed (e.g. a trailing one)
        Pending next;
        next.line = reader_.LineNumber();
        try
        {
            next.bundle = ParseBundle(line);
            if (options_.precheck)
                CheckBundle(next.bundle);
        }
        catch (const BundleError &e)
        {
            auto index = next.bundle.milestone_index ? std::optional(next.bundle.milestone_index)
                                                     : IndexOf(line);
            Reject(next.line, index,
                   (index ? fmt::format("milestone {}: ", *index) : "") + e.what(), line);
            return std::nullopt;
        }
        if (!options_.rejects_path.empty())
            next.text = std::string(line);
        return next;
    }

    // Counts an answered milestone, rejects it, or stops the run on a database error.
    void Account(const MilestoneOutcome &outcome, const Pending &done)
    {
        if (outcome.ok() && !done.bundle.protocol_parameters.empty())
            parameters_.push_back({done.bundle.milestone_index, done.bundle.protocol_parameters});
        if (outcome.ok() && outcome.already_ingested)
            summary_.already_present++;
        else if (outcome.ok())
        {
            summary_.ingested++;
            summary_.blocks += static_cast<std::uint64_t>(outcome.messages);
            summary_.outputs += static_cast<std::uint64_t>(outcome.outputs);
            summary_.spent += static_cast<std::uint64_t>(outcome.spent);
            std::int64_t index = done.bundle.milestone_index;
            summary_.lowest = summary_.lowest < 0 ? index : std::min(summary_.lowest, index);
            summary_.highest = std::max(summary_.highest, index);
        }
        else if (IsDataError(outcome.error->sqlstate()))
            Reject(done.line, done.bundle.milestone_index, DescribeServerError(done, outcome),
                   done.text);
        else
        {
            fmt::print(stderr, "{}:{}: milestone {}: database error {}: {}\n", reader_.Name(),
                       done.line, done.bundle.milestone_index, outcome.error->sqlstate(),
                       outcome.error->message());
            sending_ = false;
            exit_code_ = kDatabase;
        }
    }

    // A bad milestone: report it; stop unless --skip-bad.
    void Reject(std::uint64_t line_number, std::optional<std::uint32_t> index,
                const std::string &what, std::string_view text)
    {
        rejects_.Report(reader_.Name(), line_number, index, what, text);
        if (options_.skip_bad)
        {
            summary_.skipped++;
            return;
        }
        sending_ = false;
        if (exit_code_ == kOk)
            exit_code_ = kBadInput;
    }

    // The connection with the fewest milestones in flight, or -1 when all are full.
    int LeastBusy() const
    {
        int best = -1;
        for (int j = 0; j < jobs_; ++j)
            if (conns_[j]->InFlight() < depth_ &&
                (best < 0 || conns_[j]->InFlight() < conns_[best]->InFlight()))
                best = j;
        return best;
    }

    // A connection whose next result has arrived, waiting for one if need be; -1 when none has
    // a milestone in flight. Taking whichever answers first, rather than the oldest milestone's,
    // keeps the others' pipelines full while one waits for a row lock.
    int NextAnswered()
    {
        std::vector<pollfd> waiting;
        for (;;)
        {
            waiting.clear();
            for (int j = 0; j < jobs_; ++j)
            {
                if (pending_[j].empty())
                    continue;
                if (conns_[j]->ResultReady())
                    return j;
                waiting.push_back({conns_[j]->Socket(), POLLIN, 0});
            }
            if (waiting.empty())
                return -1;
            // A signal (Ctrl-C) interrupts the wait; the loop then looks again.
            poll(waiting.data(), waiting.size(), -1);
        }
    }

    const IngestOptions &options_;
    IngestSummary &summary_;
    LineReader reader_;
    Rejects rejects_;
    const int jobs_;
    const int depth_; // milestones in flight per connection at most
    std::vector<std::unique_ptr<IngestConnection>> conns_;
    std::unique_ptr<Progress> progress_; // made once connected: its clock starts there
    std::chrono::steady_clock::time_point start_;
    std::vector<std::deque<Pending>> pending_; // per connection, in the order sent
    bool sending_ = true;
    int exit_code_ = kOk;
    std::vector<ParametersChange> parameters_; // of the milestones ingested or present

  public:
    // The protocol parameters the run's bundles carried, to record once it is over.
    std::vector<ParametersChange> TakeParameters() { return std::move(parameters_); }
};

// Without synchronous_commit, makes the run's commits durable; false (reported) when that fails.
bool FlushRun(const std::string &dsn)
{
    try
    {
        FlushCommits(dsn);
        return true;
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr,
                   "cannot flush the last commits to disk (a re-run ingests any the "
                   "server lost): {}\n",
                   e.what());
        return false;
    }
}

// The run's milestones measured; a failure leaves them to `permanode analytics --fill` (what
// was ingested stays).
void MeasureLoaded(const std::string &dsn, const IngestSummary &summary)
{
    try
    {
        MeasureIngested(dsn, static_cast<int>(summary.lowest), static_cast<int>(summary.highest));
    }
    catch (const std::exception &e)
    {
        fmt::print(stderr, "analytics not measured (permanode analytics --fill {} {}): {}\n",
                   summary.lowest, summary.highest, e.what());
    }
}

} // namespace

int DefaultJobs()
{
    unsigned cores = std::thread::hardware_concurrency();
    return static_cast<int>(std::clamp(cores, 2u, 8u));
}

int Ingest(const std::string &dsn, const IngestOptions &options, IngestSummary &summary)
{
    IngestRun run(dsn, options, summary);
    int exit_code = run.Run();
    if (!options.synchronous_commit && summary.ingested > 0 && !FlushRun(dsn) && exit_code == kOk)
        exit_code = kDatabase;
    bool interrupted = Interrupted();
    if (options.summary)
    {
        PrintSummary(summary, interrupted);
        if (summary.ingested > 0)
            PrintGaps(dsn);
    }
    if (exit_code != kOk)
        return exit_code;
    if (interrupted)
        return kInterrupted;
    if (int recorded = RecordProtocolParameters(dsn, run.TakeParameters()); recorded > 0)
        fmt::print("protocol parameters: {} change{} recorded\n", recorded,
                   recorded == 1 ? "" : "s");
    if (summary.ingested > 0 && options.measure)
        MeasureLoaded(dsn, summary);
    return Maintain(dsn);
}

} // namespace permanode::cli
