"""The soak's keys: real IDs, addresses, tags and indexes of every era, read from the database,
from milestones spread over each era's whole history, so that both archived ranges and hot ones
are asked for. Used by load_requests.py (the load) and sampler.py (the answers compared with SQL)."""

import random

# Milestones per era whose keys are taken: evenly spread, the newest included.
MILESTONES_PER_ERA = 24
# The newest milestones are left out: the core API serves a milestone's payload once the next
# milestone is in (the payload travels in its cone), and the newest range may be written.
NEWEST_LEFT_OUT = 2

ERAS = {"chrysalis": 1, "stardust": 2}


def spread(values, count):
    """`count` of `values` (sorted), evenly spaced, first and last included."""
    if len(values) <= count:
        return list(values)
    step = (len(values) - 1) / (count - 1)
    return [values[round(i * step)] for i in range(count)]


def era_milestones(db, version):
    held = [r[0] for r in db.rows(
        "SELECT milestone_index FROM permanode.milestone_protocols WHERE protocol_version = %s "
        "ORDER BY 1", (version,))]
    if version == ERAS["stardust"]:
        held = held[:-NEWEST_LEFT_OUT]
    return spread(held, MILESTONES_PER_ERA)


def chunk_sizes(db):
    return dict(db.rows("SELECT table_name::text, chunk_size FROM permanode.ledger_tables"))


def ledger_keys(db, version):
    """The keys of one ledger era (Chrysalis or Stardust) at its spread milestones."""
    chunks = chunk_sizes(db)
    keys = {name: [] for name in ("milestones", "blocks", "transactions", "outputs", "addresses",
                                  "tags", "senders", "nfts", "nft_issuers", "aliases",
                                  "state_controllers", "foundries", "alias_addresses")}

    def at(table, columns, m, limit, where="true"):
        return db.rows(f"SELECT {columns} FROM permanode.{table} WHERE ms_range_id = %s AND "
                       f"milestone_index = %s AND {where} LIMIT {limit}", (m // chunks[table], m))

    for m in era_milestones(db, version):
        for index, milestone_id in at("milestones", "milestone_index, milestone_id::text", m, 1):
            keys["milestones"].append([index, milestone_id])
        # One block of each payload kind (transaction, tagged data, milestone, none).
        keys["blocks"] += [r[0] for r in at(
            "messages", "DISTINCT ON (variant) message_id::text", m, 4)]
        # Included ones: a conflicting transaction has no included block (404, rightly).
        keys["transactions"] += [r[0] for r in at(
            "transactions", "DISTINCT transaction_id::text", m, 2, "inclusion_state = 1")]
        keys["tags"] += ["0x" + r[0] for r in at(
            "tags", "DISTINCT encode(tag, 'hex')", m, 2)]
        if version == ERAS["chrysalis"]:
            for output_id, address in at("legacy_outputs", "output_id::text, address::text", m,
                                         3, "NOT is_used AND address IS NOT NULL"):
                keys["outputs"].append(output_id)
                keys["addresses"].append(address)
            continue
        for output_id, address, sender in at(
                "basic_outputs", "output_id::text, address::text, sender::text", m, 3,
                "address IS NOT NULL"):
            keys["outputs"].append(output_id)
            keys["addresses"].append(address)
            if sender:
                keys["senders"].append(sender)
        for nft_id, output_id, issuer in at(
                "nft_outputs", "nft_id::text, output_id::text, issuer::text", m, 1):
            keys["nfts"].append(nft_id)
            keys["outputs"].append(output_id)
            if issuer:
                keys["nft_issuers"].append(issuer)
        for alias_id, controller in at("alias_outputs", "alias_id::text, state_controller::text",
                                       m, 1):
            keys["aliases"].append(alias_id)
            if controller:
                keys["state_controllers"].append(controller)
        for foundry_id, alias_address in at("foundry_outputs", "foundry_id::text, address::text",
                                            m, 1):
            keys["foundries"].append(foundry_id)
            keys["alias_addresses"].append(alias_address)
    keys = {name: sorted(set(values)) if name != "milestones" else values
            for name, values in keys.items()}
    # The era's first days, for the routes that take a date range.
    keys["dates"] = [r[0] for r in db.rows(
        "SELECT d.date::text FROM permanode.date_cache d JOIN permanode.milestone_protocols p "
        "ON p.milestone_index = d.start_ms WHERE p.protocol_version = %s ORDER BY 1 LIMIT 7",
        (version,))]
    return keys


def legacy_keys(db):
    """Transactions, addresses and bundles of each legacy month (hot and archived alike)."""
    keys = {"hashes": [], "addresses": [], "bundles": []}
    months = [r[0] for r in db.rows("SELECT DISTINCT month_id FROM legacy.transactions ORDER BY 1")]
    for month in months:
        for hash_, address, bundle in db.rows(
                "SELECT hash::text, address::text, bundle::text FROM legacy.transactions "
                "WHERE month_id = %s AND value <> 0 ORDER BY hash LIMIT 20", (month,)):
            keys["hashes"].append(hash_)
            keys["addresses"].append(address)
            keys["bundles"].append(bundle)
    return {name: sorted(set(values)) for name, values in keys.items()}


def read_keys(db):
    keys = {era: ledger_keys(db, version) for era, version in ERAS.items()}
    keys["legacy"] = legacy_keys(db)
    keys["receipts"] = [r[0] for r in db.rows(
        "SELECT DISTINCT migrated_at FROM permanode.receipts ORDER BY 1 LIMIT 20")]
    for era in ERAS:
        for name, values in keys[era].items():
            if not values and name in ("milestones", "blocks", "transactions", "outputs",
                                       "addresses"):
                raise RuntimeError(f"no {name} of the {era} era in the database")
    return keys


def pick(rng, values, count):
    """Up to `count` of `values`, drawn by `rng` without repetition."""
    return rng.sample(values, min(count, len(values)))


def new_rng(seed):
    return random.Random(seed)
