// Running external programs from the CLI.
#include "process.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char **environ;

namespace permanode::cli
{

bool IsRoot()
{
    return geteuid() == 0;
}

int RunProgram(const std::vector<std::string> &args, const std::string &run_as,
               const std::string &log_path)
{
    std::vector<std::string> full;
    if (!run_as.empty() && IsRoot())
        full = {"runuser", "-u", run_as, "--"};
    full.insert(full.end(), args.begin(), args.end());

    std::vector<char *> argv;
    for (auto &a : full)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!log_path.empty())
    {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(),
                                         O_WRONLY | O_CREAT | O_APPEND, 0644);
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    }
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        throw std::runtime_error("cannot run " + full[0] + ": " + std::strerror(rc));

    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            throw std::runtime_error("waitpid failed: " + std::string(std::strerror(errno)));
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}

int WithSoftOpenFilesLimit(unsigned long soft, const std::function<int()> &run)
{
    rlimit saved{};
    if (getrlimit(RLIMIT_NOFILE, &saved) != 0)
        return run();
    rlimit lowered = saved;
    lowered.rlim_cur = std::min<rlim_t>(soft, saved.rlim_max);
    setrlimit(RLIMIT_NOFILE, &lowered);
    struct Restore
    {
        const rlimit &saved;
        ~Restore() { setrlimit(RLIMIT_NOFILE, &saved); }
    } restore{saved};
    return run();
}

void EnsureSystemUser(const std::string &name, unsigned &uid, unsigned &gid)
{
    if (getpwnam(name.c_str()) == nullptr)
    {
        int rc = RunProgram(
            {"useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name});
        if (rc != 0 && getpwnam(name.c_str()) == nullptr)
            throw std::runtime_error("cannot create system user " + name);
    }
    const passwd *pw = getpwnam(name.c_str());
    if (pw == nullptr)
        throw std::runtime_error("system user " + name + " not found");
    uid = pw->pw_uid;
    gid = pw->pw_gid;
}

} // namespace permanode::cli
