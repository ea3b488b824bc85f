#!/usr/bin/python3
"""The soak's correctness sampler: until the deadline, asks the server for answers of every
family in turn (a random key of keys.py each time) and compares each with what SQL says on the
same database. One CSV line per sample: unix time, check, outcome, milliseconds, detail.

Outcomes:
  ok       the answer equals SQL's
  wrong    it does not (the answer and SQL's are appended to WRONG_LOG), or the server said
           "not found" (4xx) for a key the database holds
  error    no answer: the connection failed or timed out, or the server answered 5xx (it was
           being killed, or its database was)
  raced    it differs, but a milestone was committed between the request and the SQL read, so
           the two answers are of different ledgers (only checks that are not pinned to a
           milestone can race)
  no_sql   the database did not answer the SQL side (it was restarting): not compared

Usage: sampler.py DSN BASE_URL KEYS_FILE DEADLINE SEED SAMPLES_CSV WRONG_LOG"""

import csv
import json
import os
import sys
import time
import urllib.error
import urllib.request

import psycopg2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import keys as soak_keys  # noqa: E402
import soak_db  # noqa: E402

RAW = "application/vnd.iota.serializer-v1"
PAUSE = 0.2  # seconds between samples
INCLUSION = {0: "noTransaction", 1: "included", 2: "conflicting"}


class NoAnswer(Exception):
    """The server gave no answer to compare (connection error, timeout, 5xx)."""


class Wrong(Exception):
    """The server answered something other than SQL says."""


class Sampler:
    def __init__(self, dsn, base_url, keys, rng):
        self.db = soak_db.Database(dsn)
        self.base_url = base_url
        self.keys = keys
        self.rng = rng

    # -- the two sides

    def http(self, path, body=None, accept=None):
        headers = {"Accept": accept} if accept else {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers.update({"Content-Type": "application/json", "X-IOTA-API-Version": "1"})
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                payload = r.read()
        except urllib.error.HTTPError as e:
            if e.code >= 500:
                raise NoAnswer(f"{e.code} on {path}")
            raise Wrong(f"{e.code} on {path}: {e.read()[:300]!r}")
        except (OSError, urllib.error.URLError) as e:
            raise NoAnswer(f"{type(e).__name__} on {path}: {e}")
        return payload if accept == RAW else json.loads(payload)

    def absent(self, path):
        """Raises Wrong unless the server answers 404."""
        try:
            self.http(path)
        except Wrong as e:
            if str(e).startswith("404 "):
                return
            raise
        raise Wrong(f"{path}: found, where SQL holds nothing")

    def one(self, sql, params=()):
        rows = self.db.rows(sql, params)
        return rows[0] if rows else None

    def ledger_index(self):
        return self.one("SELECT max(milestone_index) FROM permanode.sync")[0]

    def choose(self, era, pool):
        return self.rng.choice(self.keys[era][pool])

    @staticmethod
    def same(what, answer, expected):
        if answer != expected:
            raise Wrong(f"{what}: answer {answer!r} != SQL {expected!r}")

    # -- the checks: each asks, reads SQL, and raises Wrong on a difference

    def core_block(self):
        block_id = self.choose("stardust", "blocks")
        raw = self.http(f"/api/core/v2/blocks/{block_id}", accept=RAW)
        (stored,) = self.one("SELECT message FROM permanode.messages WHERE message_id = %s",
                             (block_id,))
        self.same(block_id, raw, bytes(stored))

    def core_block_metadata(self):
        block_id = self.choose("stardust", "blocks")
        meta = self.http(f"/api/core/v2/blocks/{block_id}/metadata")
        row = self.one("SELECT milestone_index, white_flag_index, inclusion_state "
                       "FROM permanode.messages WHERE message_id = %s", (block_id,))
        self.same(block_id, (meta["blockId"], meta.get("referencedByMilestoneIndex"),
                             meta.get("whiteFlagIndex"), meta.get("ledgerInclusionState")),
                  (block_id, row[0], row[1], INCLUSION.get(row[2])))

    def core_milestone(self):
        index, milestone_id = self.choose("stardust", "milestones")
        raw = self.http(f"/api/core/v2/milestones/by-index/{index}", accept=RAW)
        by_id = self.http(f"/api/core/v2/milestones/{milestone_id}")
        (payload,) = self.one("SELECT payload FROM permanode.milestones WHERE milestone_index = %s",
                              (index,))
        self.same(f"milestone {index}", (raw, by_id["index"]), (bytes(payload), index))

    def core_output(self):
        output_id = self.choose("stardust", "outputs")
        at = self.ledger_index()
        meta = self.http(f"/api/core/v2/outputs/{output_id}/metadata?ledgerIndex={at}")
        created = self.one(
            "SELECT coalesce(message_id::text, '0x' || repeat('0', 64)), milestone_index FROM ("
            " SELECT message_id, milestone_index FROM permanode.basic_outputs WHERE output_id = %s"
            " UNION ALL SELECT message_id, milestone_index FROM permanode.nft_outputs"
            " WHERE output_id = %s) o", (output_id, output_id))
        spent = self.one("SELECT milestone_index, transaction_id::text FROM "
                         "permanode.spent_outputs WHERE output_id = %s AND milestone_index <= %s",
                         (output_id, at))
        self.same(f"output {output_id} at {at}",
                  (meta["blockId"], meta["milestoneIndexBooked"], meta["isSpent"],
                   meta.get("milestoneIndexSpent"), meta.get("transactionIdSpent")),
                  (created[0], created[1], spent is not None, spent and spent[0],
                   spent and spent[1]))

    def core_included_block(self):
        transaction_id = self.choose("stardust", "transactions")
        row = self.one(
            "SELECT m.message FROM permanode.transactions t JOIN permanode.messages m "
            "ON m.message_id = t.message_id WHERE t.transaction_id = %s AND t.inclusion_state = 1 "
            "LIMIT 1", (transaction_id,))
        path = f"/api/core/v2/transactions/{transaction_id}/included-block"
        if row is None:  # a conflicting transaction: no block included it
            self.absent(path)
            return
        self.same(f"transaction {transaction_id}", self.http(path, accept=RAW), bytes(row[0]))

    def indexer_basic(self):
        address = self.choose("stardust", "addresses")
        at = self.ledger_index()
        page = self.http(f"/api/indexer/v1/outputs/basic?address={address}&ledgerIndex={at}"
                         "&pageSize=100")
        # From the history tables (hot and archived), not the unspent set the route reads.
        expected = [r[0] for r in self.db.rows(
            "SELECT b.output_id::text FROM permanode.basic_outputs b WHERE b.address = %s "
            "AND b.milestone_index <= %s AND NOT EXISTS (SELECT 1 FROM permanode.spent_outputs s "
            "WHERE s.output_id = b.output_id AND s.milestone_index <= %s) "
            "ORDER BY b.milestone_index DESC, b.output_id DESC LIMIT 100", (address, at, at))]
        self.same(f"basic outputs of {address} at {at}", page["items"], expected)

    def v1_message(self):
        message_id = self.choose("chrysalis", "blocks")
        raw = self.http(f"/api/v1/messages/{message_id[2:]}/raw", accept=RAW)
        (stored,) = self.one("SELECT message FROM permanode.messages WHERE message_id = %s",
                             (message_id,))
        self.same(message_id, raw, bytes(stored))

    def v1_milestone(self):
        index, _ = self.choose("chrysalis", "milestones")
        data = self.http(f"/api/v1/milestones/{index}")["data"]
        row = self.one("SELECT message_id::text, timestamp FROM permanode.milestones "
                       "WHERE milestone_index = %s", (index,))
        self.same(f"milestone {index}", (data["messageId"], data["timestamp"]),
                  (row[0][2:], row[1]))

    def v1_output(self):
        output_id = self.choose("chrysalis", "outputs")
        data = self.http(f"/api/v1/outputs/{output_id[2:]}")["data"]
        spent = self.one("SELECT milestone_index FROM permanode.legacy_outputs WHERE "
                         "output_id = %s AND is_used AND milestone_index <= (SELECT "
                         "max(milestone_index) FROM permanode.milestone_protocols WHERE "
                         "protocol_version = 1)", (output_id,))
        self.same(f"output {output_id}", (data["isSpent"], data.get("milestoneIndexSpent")),
                  (spent is not None, spent and spent[0]))

    def v1_balance(self):
        address = self.choose("chrysalis", "addresses")
        data = self.http(f"/api/v1/addresses/{address}")["data"]
        # The era is over: its balance is what its outputs created minus those spent in it (an
        # output the Stardust genesis carried on may be spent later, in Stardust).
        (balance,) = self.one(
            "SELECT coalesce(sum(c.amount), 0) FROM permanode.legacy_outputs c WHERE "
            "c.address = %s AND NOT c.is_used AND NOT EXISTS (SELECT 1 FROM "
            "permanode.legacy_outputs u WHERE u.output_id = c.output_id AND u.is_used AND "
            "u.milestone_index <= (SELECT max(milestone_index) FROM "
            "permanode.milestone_protocols WHERE protocol_version = 1))", (address,))
        self.same(f"balance of {address}", int(data["balance"]), int(balance))

    def legacy_trytes(self):
        hash_ = self.rng.choice(self.keys["legacy"]["hashes"])
        answer = self.http("/", {"command": "getTrytes", "hashes": [hash_]})
        (trytes,) = self.one("SELECT legacy.trytes(t5b1)::text FROM legacy.transactions "
                             "WHERE hash = %s", (hash_,))
        self.same(f"trytes of {hash_}", answer["trytes"], [trytes])

    def legacy_balance(self):
        address = self.rng.choice(self.keys["legacy"]["addresses"])
        answer = self.http("/", {"command": "getBalances", "addresses": [address]})
        (balance,) = self.one("SELECT legacy.balance(%s)", (address,))
        self.same(f"legacy balance of {address}", int(answer["balances"][0]), int(balance))

    def explorer_milestone_blocks(self):
        era = self.rng.choice(list(soak_keys.ERAS))
        index, _ = self.choose(era, "milestones")
        page = self.http(f"/api/explorer/v2/milestones/by-index/{index}/blocks?pageSize=1000")
        expected = sorted(r[0] for r in self.db.rows(
            "SELECT message_id::text FROM permanode.messages WHERE ms_range_id = "
            "permanode.ms_range_id('messages', %s) AND milestone_index = %s", (index, index)))
        self.same(f"blocks of milestone {index}", sorted(b["blockId"] for b in page["blocks"]),
                  expected)

    def explorer_balance(self):
        address = self.choose("stardust", "addresses")
        at = self.ledger_index()
        answer = self.http(f"/api/explorer/v2/balance/{address}?ledgerIndex={at}")
        (balance,) = self.one("SELECT coalesce(sum(balance), 0) FROM "
                              "permanode.balance_at(%s, %s)", (address, at))
        self.same(f"balance of {address} at {at}", int(answer["totalBalance"]), int(balance))

    def history(self):
        era = self.rng.choice(list(soak_keys.ERAS))
        address = self.choose(era, "addresses")
        at = self.ledger_index()
        page = self.http(f"/api/explorer/v2/history/{address}?pageSize=20&toMilestone={at}")
        expected = [list(r) for r in self.db.rows(
            "SELECT output_id::text, milestone_index, amount::text FROM "
            "permanode.address_history(%s, 20, to_milestone => %s)", (address, at))]
        self.same(f"history of {address} to {at}",
                  [[i["outputId"], i["milestoneIndex"], i["amount"]] for i in page["items"]],
                  expected)

    def measurement(self):
        index, _ = self.choose("stardust", "milestones")
        answer = self.http(f"/api/analytics/v2/measurements/block-activity?from={index}"
                           f"&to={index}")
        expected = [list(r) for r in self.db.rows(
            "SELECT milestone_index, blocks_tagged_data, blocks_transaction, blocks_milestone "
            "FROM permanode.milestone_measurements WHERE milestone_index = %s", (index,))]
        self.same(f"block activity at {index}",
                  [[i["milestoneIndex"], i["taggedData"], i["transaction"], i["milestone"]]
                   for i in answer["items"]], expected)


# Checks whose answer cannot change while the ledger grows (a key's own rows, or pinned to a
# milestone with ledgerIndex): a difference is wrong whatever was committed meanwhile.
PINNED = {"core_block", "core_block_metadata", "core_milestone", "core_output",
          "core_included_block", "indexer_basic", "v1_message", "v1_milestone", "v1_output",
          "v1_balance", "legacy_trytes", "legacy_balance", "explorer_milestone_blocks",
          "explorer_balance", "measurement"}
CHECKS = sorted(PINNED | {"history"})


def sample(sampler, check):
    """(outcome, detail) of one sample."""
    try:
        before = sampler.ledger_index()
    except psycopg2.Error as e:
        return "no_sql", str(e).splitlines()[0]
    try:
        getattr(sampler, check)()
        return "ok", ""
    except NoAnswer as e:
        return "error", str(e)
    except psycopg2.Error as e:
        return "no_sql", str(e).splitlines()[0]
    except (Wrong, KeyError, TypeError, ValueError) as e:
        detail = f"{type(e).__name__}: {e}"
    # A difference: compare the ledger it was read against.
    if check not in PINNED:
        try:
            if sampler.ledger_index() != before:
                return "raced", detail
        except psycopg2.Error:
            return "no_sql", detail
    return "wrong", detail


def main():
    dsn, base_url, keys_file, deadline, seed, samples_csv, wrong_log = sys.argv[1:]
    deadline = float(deadline)
    rng = soak_keys.new_rng(int(seed))
    sampler = Sampler(dsn, base_url, None, rng)
    with open(samples_csv, "a", buffering=1) as out, open(wrong_log, "a", buffering=1) as wrong:
        rows = csv.writer(out)
        n = 0
        while time.time() < deadline:
            # The keys file is written again as the ledger grows: newer keys join.
            with open(keys_file) as f:
                sampler.keys = json.load(f)
            check = CHECKS[n % len(CHECKS)]
            n += 1
            began = time.time()
            outcome, detail = sample(sampler, check)
            ms = (time.time() - began) * 1000
            rows.writerow([f"{began:.3f}", check, outcome, f"{ms:.1f}", detail[:300]])
            if outcome == "wrong":
                wrong.write(f"{time.strftime('%H:%M:%S', time.localtime(began))} {check}: "
                            f"{detail}\n")
            time.sleep(PAUSE)


if __name__ == "__main__":
    main()
