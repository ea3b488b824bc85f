#!/usr/bin/python3
"""The soak's HTTP load: every route of the server's own OpenAPI document, filled with real keys
of its era from the database (keys.py), a few keys each, as lines "METHOD<TAB>PATH[<TAB>BODY]"
for bench/soak_lib/load.lua, shuffled; and the keys as JSON for the sampler. A route whose path
parameter this script cannot fill stops it, so that a new route is never left out unnoticed.

Usage: load_requests.py DSN BASE_URL REQUESTS_FILE KEYS_FILE SEED"""

import json
import os
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import keys as soak_keys  # noqa: E402
import soak_db  # noqa: E402

KEYS_PER_ROUTE = 8
PAGE_SIZE = 20  # every paged route asks for a bounded page

# Not loaded: /health answers 503 while the sync lags behind its node (after its kill, say),
# which is a true answer, not an error of the server.
LEFT_OUT = {"/health"}

# Served measurement names (client/http/routes/measurement_routes.cpp).
MEASUREMENTS = ["active-addresses", "address-balance", "base-token-activity", "block-activity",
                "ledger-outputs", "ledger-size", "milestone-size", "output-activity",
                "protocol-parameters", "transaction-size", "unclaimed-tokens",
                "unlock-conditions"]

# The query filter each indexer listing is asked with, and the key pool that fills it.
INDEXER_FILTERS = {"basic": ("address", "addresses"), "nft": ("address", "addresses"),
                   "alias": ("stateController", "state_controllers"),
                   "foundry": ("aliasAddress", "alias_addresses")}


def era_of(path):
    """The era whose keys a route takes: one, or both ledger eras in turn."""
    if path.startswith("/api/v1"):
        return ["chrysalis"]
    if path.startswith(("/api/core/v2", "/api/indexer/v1")):
        return ["stardust"]
    if path.startswith("/api/explorer/v2/legacy"):
        return ["legacy"]
    return ["stardust", "chrysalis"]


def hex_address(bech32):
    """The Ed25519 hash of a bech32 address, as 0x-less hex (the v1 ed25519 routes)."""
    charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    data = [charset.index(c) for c in bech32[bech32.rindex("1") + 1:-6]]
    bits, value, out = 0, 0, bytearray()
    for d in data:
        value = (value << 5) | d
        bits += 5
        if bits >= 8:
            bits -= 8
            out.append((value >> bits) & 0xFF)
    return out[1:].hex()  # the first byte is the address type


def pool(keys, era, name, path):
    """The values for path parameter `name` of a route of `era`."""
    if era == "legacy":
        return {"hash": keys["legacy"]["hashes"], "address": keys["legacy"]["addresses"]}.get(name)
    ledger = keys[era]
    if name == "address" and "/ed25519/" in path:
        return [hex_address(a) for a in ledger["addresses"]]
    if name == "index" and "/measurements/" not in path:
        return [str(m[0]) for m in ledger["milestones"]]
    return {"blockId": ledger["blocks"], "messageId": ledger["blocks"],
            "outputId": ledger["outputs"], "transactionId": ledger["transactions"],
            "milestoneId": [m[1] for m in ledger["milestones"]],
            "address": ledger["addresses"], "aliasId": ledger["aliases"],
            "nftId": ledger["nfts"], "foundryId": ledger["foundries"],
            "name": MEASUREMENTS, "period": ["daily", "weekly", "monthly"],
            "migratedAt": [str(r) for r in keys["receipts"]]}.get(name)


def query_of(path, parameters, ledger, rng):
    """The query string: a bounded page, and the filter a listing needs."""
    names = {p["name"] for p in parameters if p.get("in") == "query"}
    query = []
    if "pageSize" in names:
        query.append(f"pageSize={PAGE_SIZE}")
    if "top" in names:
        query.append("top=10")
    if path.endswith("/measurements/{name}"):
        query.append("last=10")
    if path == "/api/analytics/v2/daily" and ledger["dates"]:
        query.append(f"from={ledger['dates'][0]}&to={ledger['dates'][-1]}")
    kind = path.rsplit("/", 1)[-1]
    if path.startswith("/api/indexer/v1/outputs/") and kind in INDEXER_FILTERS:
        name, key_pool = INDEXER_FILTERS[kind]
        values = ledger.get(key_pool) or ledger["addresses"]
        query.append(f"{name}={rng.choice(values)}")
    if path in ("/api/v1/messages", "/messages"):
        query.append(f"index={rng.choice(ledger['tags'])[2 if path.startswith('/api') else 0:]}")
    return "?" + "&".join(query) if query else ""


def get_requests(path, parameters, keys, rng, web_files):
    lines = []
    eras = era_of(path)
    for i in range(KEYS_PER_ROUTE):
        era = eras[i % len(eras)]
        concrete = path
        for name in [p["name"] for p in parameters if p.get("in") == "path"]:
            values = web_files if name == "file" else pool(keys, era, name, path)
            if values is None:
                raise SystemExit(f"load_requests.py: no keys for parameter {name} of {path}")
            if not values:
                break  # this era has none (a ledger without foundries, say)
            concrete = concrete.replace("{" + name + "}", str(rng.choice(values)))
        if "{" in concrete:
            continue
        ledger = keys[era] if era in soak_keys.ERAS else keys["stardust"]
        lines.append(f"GET\t{concrete}{query_of(path, parameters, ledger, rng)}")
    return lines


def legacy_commands(keys, rng):
    """Bodies of the legacy node API's commands (POST /), each with real keys."""
    legacy = keys["legacy"]
    bodies = []
    for _ in range(KEYS_PER_ROUTE):
        hashes = soak_keys.pick(rng, legacy["hashes"], 3)
        addresses = soak_keys.pick(rng, legacy["addresses"], 3)
        bodies += [{"command": "getTrytes", "hashes": hashes},
                   {"command": "findTransactions", "addresses": addresses},
                   {"command": "findTransactions", "bundles": soak_keys.pick(rng, legacy["bundles"],
                                                                             2)},
                   {"command": "getInclusionStates", "transactions": hashes},
                   {"command": "getBalances", "addresses": addresses},
                   {"command": "wereAddressesSpentFrom", "addresses": addresses}]
    bodies.append({"command": "getNodeInfo"})
    return bodies


def fetch(url):
    """The body at url, asked again for a minute while the server is down (it may be being
    restarted after a kill)."""
    for attempt in range(60):
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                return r.read()
        except OSError:
            if attempt == 59:
                raise
            time.sleep(1)


def build(dsn, base_url, seed):
    db = soak_db.Database(dsn)
    keys = soak_keys.read_keys(db)
    document = json.loads(fetch(base_url + "/api/openapi.json"))
    page = fetch(base_url + "/").decode()
    web_files = sorted(set(re.findall(r'(?:src|href)="/web/([^"]+)"', page)))
    rng = soak_keys.new_rng(seed)
    lines = []
    for path, operations in sorted(document["paths"].items()):
        if path in LEFT_OUT:
            continue
        for method, operation in operations.items():
            if method == "post":
                lines += [f"POST\t{path}\t{json.dumps(body)}" for body in legacy_commands(keys, rng)]
            elif method == "get":
                lines += get_requests(path, operation.get("parameters", []), keys, rng, web_files)
    rng.shuffle(lines)
    return lines, keys


def main():
    dsn, base_url, requests_file, keys_file, seed = sys.argv[1:]
    lines, keys = build(dsn, base_url, int(seed))
    # Written aside and renamed: the load's next slice reads a whole file, old or new.
    for path, text in ((requests_file, "\n".join(lines) + "\n"), (keys_file, json.dumps(keys))):
        with open(path + ".new", "w") as f:
            f.write(text)
        os.replace(path + ".new", path)
    print(f"{len(lines)} requests over {len({l.split(chr(9))[1].split('?')[0] for l in lines})} "
          f"paths")


if __name__ == "__main__":
    main()
