#!/usr/bin/python3
"""The soak's report: from the CSVs bench/soak wrote in DATA, the chart OUT/soak.png (requests/s,
p50 and p99 latency, errors, resident memory and the ledger's growth over time, each kill a
vertical line) and OUT/soak.md (the figures, and each criterion passed or failed). Exits 1 when
a criterion fails.

Usage: report.py DATA OUT"""

import csv
import json
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# A kill is recovered once the next correct answer (the server, a backend) or the next ingested
# milestone (the sync, a backend: the postmaster restarts the sync's backend too) comes within
# this: a restart takes a second or two, the database's crash recovery a few more, and the node
# confirms a milestone every 2 s; a process that hangs on a dead connection never recovers.
RECOVERY_BOUND_S = 120
# An exit of the server or the sync later than this after every kill is a crash of its own.
PROVOKED_EXIT_S = 60
# Memory is sampled after this much of each server's life (caches and allocator arenas fill).
WARMUP_S = 120
# The resident memory may grow at most this much per hour over a server's life (least squares
# over its samples): a leak of 100 bytes per request at the soak's ~500 requests/s grows 180
# MB/h, an unbounded cache faster still; what a long-lived process's allocator settles into
# stays well below.
RSS_SLOPE_BOUND_MB_PER_H = 32
COLORS = {"sync": "tab:green", "serve": "tab:red", "backend": "tab:purple"}


def read_csv(data, name):
    path = os.path.join(data, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.reader(f))


def num(text):
    return float(text) if text not in ("", None) else None


class Run:
    def __init__(self, data):
        with open(os.path.join(data, "final.json")) as f:
            self.final = json.load(f)
        self.start = self.final["start"]
        self.slices = [dict(zip(("start", "end", "requests", "rate", "p50", "p99", "ok",
                                 "client", "server", "connect", "read", "write", "timeout"),
                                [num(v) for v in row])) for row in read_csv(data, "slices.csv")]
        self.rss = [(num(r[0]), r[1], num(r[2]), r[3], num(r[4])) for r in read_csv(data, "rss.csv")]
        self.ingest = [(num(r[0]), int(r[1]), int(r[2])) for r in read_csv(data, "ingest.csv")
                       if r[1]]
        self.kills = [(num(r[0]), r[1], r[2]) for r in read_csv(data, "kills.csv")]
        self.samples = [(num(r[0]), r[1], r[2], num(r[3]), r[4])
                        for r in read_csv(data, "samples.csv")]
        self.processes = [(num(r[0]), r[1], r[2], r[3], r[4])
                          for r in read_csv(data, "processes.csv")]
        self.maintenance = [(num(r[0]), num(r[1]), r[2], r[3], r[4])
                            for r in read_csv(data, "maintenance.csv")]
        wrong = os.path.join(data, "wrong.log")
        self.wrong_lines = open(wrong).read().splitlines() if os.path.exists(wrong) else []

    def minutes(self, t):
        return (t - self.start) / 60

    # -- recovery

    def answer_recovery(self, t):
        """Seconds from t to the sampler's first correct answer after the outage a kill at t
        made (its last failed or uncompared sample within the minute after t, or before the next
        kill; an answer right after the kill may come before the outage does)."""
        end = min([k for k, _, _ in self.kills if k > t] + [t + PROVOKED_EXIT_S])
        failed = [at for at, _, outcome, _, _ in self.samples
                  if t < at <= end and outcome in ("error", "no_sql")]
        after = max(failed, default=t)
        for at, _, outcome, _, _ in self.samples:
            if at > after and outcome == "ok":
                return at - t
        return None

    def ingest_recovery(self, t):
        """Seconds from t to the next milestone archived after those held at t."""
        held = None
        for at, newest, _ in self.ingest:
            if at <= t:
                held = newest
            elif held is None or newest > held:
                return at - t
        return None

    def kill_rows(self):
        rows = []
        for t, kind, pid in self.kills:
            answer = self.answer_recovery(t) if kind in ("serve", "backend") else None
            ingest = self.ingest_recovery(t) if kind in ("sync", "backend") else None
            needed = [v for k, v in (("answer", answer), ("ingest", ingest))
                      if (k == "answer" and kind != "sync") or (k == "ingest" and kind != "serve")]
            recovered = all(v is not None and v <= RECOVERY_BOUND_S for v in needed)
            rows.append((t, kind, pid, answer, ingest, recovered))
        return rows

    def unprovoked_exits(self):
        exits = [(t, name, code) for t, name, event, _, code in self.processes if event == "exit"
                 and t < self.final["deadline"]]
        return [(t, name, code) for t, name, code in exits
                if not any(0 <= t - k <= PROVOKED_EXIT_S for k, _, _ in self.kills)]

    def fault_window(self, start, end):
        """Whether [start, end] overlaps a kill and the minute after it."""
        return any(k - 1 <= end and start <= k + PROVOKED_EXIT_S for k, _, _ in self.kills)

    # -- memory

    def lifetimes(self, which):
        """Samples (t, MB) of each life of the server (which=1) or the sync (3), by PID."""
        lives = {}
        column = {1: (1, 2), 3: (3, 4)}[which]
        for row in self.rss:
            pid, kb = row[column[0]], row[column[1]]
            if pid and kb:
                lives.setdefault(pid, []).append((row[0], kb / 1024))
        return list(lives.values())

    def rss_slope(self, which):
        """Least-squares growth in MB per hour within the lives of a process (each life's own
        level taken out), over the samples after each life's warm-up; and how long they span."""
        sxy = sxx = span = 0.0
        for life in self.lifetimes(which):
            points = [(t, mb) for t, mb in life if t - life[0][0] >= WARMUP_S]
            if len(points) < 2:
                continue
            mt = statistics.fmean(t for t, _ in points)
            mm = statistics.fmean(mb for _, mb in points)
            sxy += sum((t - mt) * (mb - mm) for t, mb in points)
            sxx += sum((t - mt) ** 2 for t, _ in points)
            span += points[-1][0] - points[0][0]
        return (sxy / sxx * 3600 if sxx else None), span


def chart(run, path):
    fig, axes = plt.subplots(5, 1, sharex=True, figsize=(12, 14))
    mid = [run.minutes((s["start"] + s["end"]) / 2) for s in run.slices]
    axes[0].plot(mid, [s["rate"] for s in run.slices], color="tab:blue")
    axes[0].set_ylabel("requests/s")
    axes[1].plot(mid, [s["p50"] for s in run.slices], label="p50")
    axes[1].plot(mid, [s["p99"] for s in run.slices], label="p99")
    axes[1].set_yscale("log")
    axes[1].set_ylabel("latency (ms; gray: archiving)")
    axes[1].legend(loc="upper left")
    axes[2].bar(mid, [s["server"] for s in run.slices], width=0.12, label="5xx", color="tab:red")
    sockets = [s["connect"] + s["read"] + s["write"] + s["timeout"] for s in run.slices]
    axes[2].bar(mid, sockets, width=0.12, bottom=[s["server"] for s in run.slices],
                label="socket errors", color="tab:orange")
    axes[2].bar(mid, [s["client"] for s in run.slices], width=0.12, label="4xx (wrong)",
                bottom=[s["server"] + e for s, e in zip(run.slices, sockets)], color="black")
    wrong = [run.minutes(t) for t, _, outcome, _, _ in run.samples if outcome == "wrong"]
    if wrong:
        axes[2].plot(wrong, [0] * len(wrong), "kx", label="wrong answer (sampler)")
    # wrk counts a failed write for every retry while the server is down: thousands a second.
    axes[2].set_yscale("symlog", linthresh=10)
    axes[2].set_ylabel("errors per slice")
    axes[2].legend(loc="upper left")
    for which, name in ((1, "permanode serve"), (3, "permanode sync")):
        for n, life in enumerate(run.lifetimes(which)):
            axes[3].plot([run.minutes(t) for t, _ in life], [mb for _, mb in life],
                         color="tab:blue" if which == 1 else "tab:green",
                         label=name if n == 0 else None)
    axes[3].set_ylabel("resident memory (MB)")
    axes[3].legend(loc="upper left")
    axes[4].plot([run.minutes(t) for t, _, _ in run.ingest], [n for _, _, n in run.ingest],
                 color="tab:green")
    axes[4].set_ylabel("Stardust milestones held")
    axes[4].set_xlabel("minutes")
    # Archiving's swaps hold readers back a moment: shade each archive step on the latency panel.
    for began, ended, step, _, _ in run.maintenance:
        if step == "archive":
            axes[1].axvspan(run.minutes(began), run.minutes(ended), color="gray", alpha=0.2,
                            linewidth=0)
    for t, kind, _ in run.kills:
        for ax in axes:
            ax.axvline(run.minutes(t), color=COLORS.get(kind, "gray"), linestyle="--",
                       linewidth=1)
        axes[0].annotate(f"kill {kind}", (run.minutes(t), 1), xycoords=("data", "axes fraction"),
                         rotation=90, va="top", ha="right", fontsize=8,
                         color=COLORS.get(kind, "gray"))
    fig.suptitle(f"bench/soak: {run.final['minutes']} minutes, seed {run.final['seed']}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def fmt(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def report(run, out):
    f = run.final
    lines, criteria = [], []

    def criterion(ok, text):
        criteria.append((ok, text))

    slices = run.slices
    requests = sum(s["requests"] for s in slices)
    seconds = sum(s["end"] - s["start"] for s in slices) or 1
    errors = {k: int(sum(s[k] for s in slices))
              for k in ("client", "server", "connect", "read", "write", "timeout")}
    outside = [s for s in slices if not run.fault_window(s["start"], s["end"])
               and (s["server"] + s["connect"] + s["read"] + s["write"] + s["timeout"]) > 0]
    lines += ["# bench/soak report", "",
              f"{f['minutes']} minutes of load and faults (seed {f['seed']}; a milestone every "
              f"{f['pace']} s; maintenance and archiving every {f['maintain_every']} s, ranges "
              f"older than {f['older_than']} milestones archived); {f['wall_seconds'] / 60:.0f} "
              f"minutes in all with setup and checks. Disk at the end: work directory "
              f"{f['work_bytes'] / 2**20:.0f} MB (database {f['database_bytes'] / 2**20:.0f} MB, "
              f"archives {f['archive_bytes'] / 2**20:.0f} MB, WAL {f['wal_bytes'] / 2**20:.0f} "
              f"MB; the rest the generated ledger files).", "",
              "![soak](soak.png)", "", "## HTTP load (16 connections, every route)", "",
              f"- {int(requests)} requests in {len(slices)} slices: {requests / seconds:.0f}/s on "
              f"average, median p50 {fmt(statistics.median([s['p50'] for s in slices if s['p50'] is not None] or [0]))} ms, "
              f"median p99 {fmt(statistics.median([s['p99'] for s in slices if s['p99'] is not None] or [0]))} ms, "
              f"worst p99 {fmt(max([s['p99'] for s in slices if s['p99'] is not None] or [0]))} ms",
              f"- errors: {errors['server']} 5xx, {errors['connect']} connect, {errors['read']} "
              f"read, {errors['write']} write, {errors['timeout']} timeouts (wrk counts a write "
              f"error for each retry while the server is down); {errors['client']} 4xx "
              f"(answers of 'not found' or 'bad request' to real keys: wrong)",
              f"- slices with errors outside a kill and the minute after it: {len(outside)}"]
    criterion(errors["client"] == 0, "no 4xx answer to the load's real keys")
    criterion(not outside, "no errors outside the fault windows")

    lines += ["", "## Answers compared with SQL", "", "| check | ok | wrong | error | raced | "
              "no SQL |", "| --- | --- | --- | --- | --- | --- |"]
    checks = sorted({c for _, c, _, _, _ in run.samples})
    for check in checks:
        counts = {o: 0 for o in ("ok", "wrong", "error", "raced", "no_sql")}
        for _, c, outcome, _, _ in run.samples:
            if c == check:
                counts[outcome] = counts.get(outcome, 0) + 1
        lines.append(f"| {check} | {counts['ok']} | {counts['wrong']} | {counts['error']} | "
                     f"{counts['raced']} | {counts['no_sql']} |")
        criterion(counts["ok"] > 0, f"{check}: answered correctly at least once")
    wrong = [s for s in run.samples if s[2] == "wrong"]
    criterion(not wrong, f"no wrong answer among {len(run.samples)} samples")
    if run.wrong_lines:
        lines += ["", "Wrong answers (first 20):", "", "```"] + run.wrong_lines[:20] + ["```"]

    lines += ["", "## Kills", "", "| minute | kind | pid | next correct answer (s) | next "
              "milestone ingested (s) | recovered |", "| --- | --- | --- | --- | --- | --- |"]
    rows = run.kill_rows()
    for t, kind, pid, answer, ingest, recovered in rows:
        lines.append(f"| {run.minutes(t):.1f} | {kind} | {pid} | {fmt(answer)} | {fmt(ingest)} | "
                     f"{'yes' if recovered else 'NO'} |")
    criterion(len(rows) == f["planned_kills"],
              f"{len(rows)} of {f['planned_kills']} planned kills made")
    criterion(all(r[5] for r in rows), f"every kill recovered within {RECOVERY_BOUND_S} s, "
                                       "without a hand")
    unprovoked = run.unprovoked_exits()
    starts = {}
    for _, name, event, _, code in run.processes:
        starts.setdefault(name, []).append(code if event == "exit" else "start")
    for name, events in sorted(starts.items()):
        codes = [c for c in events if c != "start"]
        lines.append(f"\n{name}: started {events.count('start')} times; exits (code): "
                     f"{', '.join(codes) or 'none'} (137: killed)")
    criterion(not unprovoked, "no process exited but after a kill"
              + (f" ({', '.join(f'{n} {c} at minute {run.minutes(t):.1f}' for t, n, c in unprovoked)})"
                 if unprovoked else ""))

    lines += ["", "## Memory", ""]
    for which, name in ((1, "permanode serve"), (3, "permanode sync")):
        samples = [mb for life in run.lifetimes(which) for _, mb in life]
        slope, span = run.rss_slope(which)
        if samples:
            lines.append(f"- {name}: {samples[0]:.0f} MB at the start, "
                         f"{samples[len(samples) // 2]:.0f} MB in the middle, "
                         f"{samples[-1]:.0f} MB at the end; growth within its lives (after "
                         f"{WARMUP_S} s each, {span / 60:.0f} minutes of samples) "
                         f"{fmt(slope)} MB/h (bound {RSS_SLOPE_BOUND_MB_PER_H})")
        criterion(slope is not None and slope <= RSS_SLOPE_BOUND_MB_PER_H,
                  f"{name}'s memory flat (at most {RSS_SLOPE_BOUND_MB_PER_H} MB/h)")

    lines += ["", "## Ledger", ""]
    if run.ingest:
        held = run.ingest[-1][2] - run.ingest[0][2]
        minutes = (run.ingest[-1][0] - run.ingest[0][0]) / 60 or 1
        lines.append(f"- ingest: {held} milestones in {minutes:.0f} minutes, "
                     f"{held / minutes:.1f}/min (the node confirms {60 / f['pace']:.0f}/min)")
    expected = f["confirmed"] - f["first"] + 1
    lines.append(f"- Stardust milestones {f['first']} to {f['confirmed']} confirmed by the node: "
                 f"{f['held']} held (newest {f['newest']}), {f['gaps']} gaps, {f['measured']} "
                 f"measured; the other eras' counts (Chrysalis milestones | legacy transactions) "
                 f"{f['base_counts']} at the start, {f['counts_now']} at the end")
    criterion(f["final_sync_rc"] == 0, "the last milestones synced (sync --until-synced exit 0)")
    criterion(f["held"] == expected and f["newest"] == f["confirmed"] and f["gaps"] == 0,
              "every confirmed milestone held, none lost, no gap")
    criterion(f["base_counts"] == f["counts_now"], "the other eras unchanged")
    criterion(f["measured"] == f["held"], "every milestone held is measured (analytics kept up)")
    rounds = [m for m in run.maintenance if m[2] != "refresh"]
    failed = [m for m in rounds if m[3] != "0"]
    archives = [int(m[4]) for m in run.maintenance if m[4]]
    lines.append(f"- maintenance: {len(rounds)} steps (maintain() and archive), {len(failed)} "
                 f"failed; archives (foreign partitions) {archives[0] if archives else '-'} after "
                 f"the first, {archives[-1] if archives else '-'} at the end")
    criterion(all(run.fault_window(m[0], m[1]) for m in failed),
              "no maintenance step failed but during a fault")
    criterion(len(archives) > 1 and archives[-1] > archives[0],
              "ranges archived while the soak ran")
    lines.append(f"- verify: exit {f['verify_rc']} in {f['verify_seconds']} s: "
                 f"{f['verify_summary']}")
    criterion(f["verify_rc"] == 0, "permanode verify clean")

    lines += ["", "## Criteria", ""]
    lines += [f"- {'PASS' if ok else '**FAIL**'}: {text}" for ok, text in criteria]
    with open(os.path.join(out, "soak.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    failures = [text for ok, text in criteria if not ok]
    for text in failures:
        print(f"bench/soak: FAIL: {text}")
    print(f"bench/soak: {len(criteria) - len(failures)} of {len(criteria)} criteria passed")
    return not failures


def main():
    data, out = sys.argv[1:]
    run = Run(data)
    chart(run, os.path.join(out, "soak.png"))
    sys.exit(0 if report(run, out) else 1)


if __name__ == "__main__":
    main()
