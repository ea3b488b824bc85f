"""The capacity run's report: a chart (PNG) of each group of figures against the ledger's size,
and report.md with every figure at every step and its growth from the first step to the last.

Usage: report.py CAPACITY_CSV OUT_DIR DESCRIPTION
"""
import csv
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# What each era's size is counted in (the row that holds it at each step).
SIZES = {"stardust": "blocks", "chrysalis": "messages", "legacy": "transactions"}

# The charts: a file name, a title, and the (era, metric) rows it draws, one line per tier.
CHARTS = [
    ("stardust_point_lookups", "Stardust point lookups (warm connection), us",
     "stardust", ["output by ID", "block by ID", "block of a transaction"]),
    ("stardust_first_pages", "Stardust first pages (100), us",
     "stardust", ["first page by address", "first page by sender", "first page by tag",
                  "first page by issuer", "first page by state controller",
                  "first page by address, archived ranges", "first page by tag, archived ranges",
                  "first page by address as of a past milestone"]),
    ("stardust_deep_and_planning", "Stardust 50th page and planning, us",
     "stardust", ["50th page by address (cursor)", "planning, output by ID",
                  "planning, 50th page"]),
    ("stardust_new_connection", "Stardust lookups as a new connection's first statement, us",
     "stardust", ["new connection: output by ID", "new connection: block by ID",
                  "new connection: first page by address"]),
    ("rates", "Ingest, archive and verify rates, units/s",
     None, ["ingest blocks/s (per milestone)", "ingest messages/s (per milestone)",
            "import-dmp transactions/s", "archive rows/s (maintain)", "verify blocks/s"]),
    ("disk", "Disk per tier, GB", None, ["disk of the partitioned tables", "always-hot tables",
                                          "database size"]),
    ("bytes_per_unit_by_tier", "Partitioned bytes per block, message, transaction of each tier",
     None, ["partitioned bytes per block of the tier", "partitioned bytes per message of the tier",
            "partitioned bytes per transaction of the tier"]),
    ("always_hot_per_unit", "Always-hot bytes per block, message, transaction", None,
     ["always-hot bytes per block", "always-hot bytes per message",
      "always-hot bytes per transaction", "locators and hints bytes per block",
      "retired_outputs bytes per block", "unspent_outputs bytes per block"]),
    ("other_eras_lookups", "Chrysalis and legacy point lookups, us", None,
     ["message by ID", "transaction trytes by hash"]),
    ("server_memory", "Server memory (PSS of the cluster), GB", None,
     ["memory (PSS of the cluster's processes)"]),
    ("buffer_hits", "Share of the lookups' pages found in shared buffers", "stardust",
     ["lookups' shared buffer hit ratio"]),
]


def load(path):
    rows = list(csv.DictReader(open(path)))
    for row in rows:
        row["step"] = int(row["step"])
        row["value"] = float(row["value"])
    return rows


def sizes_by_step(rows):
    sizes = defaultdict(dict)  # era -> step -> size
    for row in rows:
        if SIZES.get(row["era"]) == row["metric"]:
            sizes[row["era"]][row["step"]] = row["value"]
    return sizes


def chart(rows, sizes, out, name, title, era, metrics):
    series = defaultdict(list)  # label -> [(size, value)]
    for row in rows:
        if row["metric"] not in metrics or (era and row["era"] != era):
            continue
        row_era = row["era"] if row["era"] in SIZES else "stardust"
        size = sizes[row_era].get(row["step"])
        if size is None:
            continue
        value = row["value"]
        if row["unit"] == "bytes" and "per" not in row["metric"]:
            value /= 1e9
        label = f'{row["metric"]} ({row["tier"]})'
        if era is None and row["era"] in SIZES:
            label = f'{row["era"]}: {label}'
        series[label].append((size / 1e6, value))
    if not series:
        return None
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for label, points in sorted(series.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label)
    ax.set_title(title)
    ax.set_xlabel("ledger size, millions (of the era's blocks, messages or transactions)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(out / f"{name}.png", dpi=90)
    plt.close(fig)
    return f"{name}.png"


def table(rows):
    steps = sorted({row["step"] for row in rows})
    figures = defaultdict(dict)  # (era, metric, tier, unit) -> step -> value
    for row in rows:
        figures[(row["era"], row["metric"], row["tier"], row["unit"])][row["step"]] = row["value"]
    lines = ["| era | figure | tier | unit | " + " | ".join(f"{s}x" for s in steps)
             + f" | {steps[-1]}x / {steps[0]}x |",
             "|" + " --- |" * (len(steps) + 5)]
    for (era, metric, tier, unit), values in figures.items():
        cells = [f"{values[s]:,.0f}" if s in values and values[s] >= 100 else
                 (f"{values[s]:.2f}" if s in values else "") for s in steps]
        first, last = values.get(steps[0]), values.get(steps[-1])
        growth = f"{last / first:.2f}" if first and last is not None else ""
        lines.append(f"| {era} | {metric} | {tier} | {unit} | " + " | ".join(cells)
                     + f" | {growth} |")
    return "\n".join(lines)


def main():
    csv_path, out, description = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    rows = load(csv_path)
    sizes = sizes_by_step(rows)
    out.mkdir(parents=True, exist_ok=True)
    images = [chart(rows, sizes, out, *spec) for spec in CHARTS]
    report = [f"# Capacity run ({description})", "",
              "Every figure at every step; the last column is its growth from the first step "
              "to the last (1.00: flat). Times in microseconds unless the unit says otherwise.",
              "", table(rows), ""]
    report += [f"![{image}]({image})" for image in images if image]
    (out / "report.md").write_text("\n".join(report) + "\n")
    print(f"capacity: report in {out / 'report.md'}, {sum(1 for i in images if i)} charts")


if __name__ == "__main__":
    main()
