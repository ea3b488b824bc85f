// @iota/core 1.0.0-beta.30 (composeAPI), the legacy IOTA client we did not write, against
// permanode-serve's legacy node API (IRI's commands on POST /): what it gets back must be what
// the fixture transactions say, read with iota.js's own transaction converter, with the
// confirmations, snapshot and Coordinator of the ledger file (tests/e2e/http_legacy_ledger.json)
// that tests/e2e/http_load_legacy.sh loaded.
//
// usage: node http_legacy_client_test.js URL LEDGER_JSON LEGACY_FIXTURES_DIR
"use strict";
const assert = require("assert");
const fs = require("fs");
const path = require("path");
const { composeAPI } = require("@iota/core");
const { asTransactionObject } = require("@iota/transaction-converter");
const { addChecksum } = require("@iota/checksum");
const isBundle = require("@iota/bundle-validator").default;
// @iota/core's own http client (1.0.0-beta.30), for a command composeAPI has no call for.
const coreDir = path.dirname(require.resolve("@iota/core"));
const { createHttpClient } = require(require.resolve("@iota/http-client", { paths: [coreDir] }));

const NINES = "9".repeat(81);

// Every fixture transaction once, as iota.js reads it, with its confirming milestone.
function load(ledgerFile, fixturesDir) {
    const plan = JSON.parse(fs.readFileSync(ledgerFile, "utf8"));
    const confirmedBy = new Map();
    for (const m of plan.milestones) {
        for (const bundle of m.bundles) {
            confirmedBy.set(bundle, m.index);
        }
    }
    const txs = new Map();
    for (const file of fs.readdirSync(fixturesDir).filter((f) => f.endsWith(".json")).sort()) {
        const doc = JSON.parse(fs.readFileSync(path.join(fixturesDir, file), "utf8"));
        for (const t of doc.transactions) {
            if (!txs.has(t.hash)) {
                const object = asTransactionObject(t.trytes, t.hash);
                txs.set(t.hash, { trytes: t.trytes, object, milestone: confirmedBy.get(object.bundle) || 0 });
            }
        }
    }
    const milestoneTail = new Map();
    for (const [hash, tx] of txs) {
        if (tx.object.address === plan.coordinator && tx.object.currentIndex === 0 && tx.milestone > 0) {
            milestoneTail.set(tx.milestone, hash);
        }
    }
    return { plan, txs, milestoneTail };
}

let checks = 0;
async function check(name, fn) {
    await fn();
    checks++;
    console.log(`ok ${checks} - ${name}`);
}

const byHash = (a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0);

async function main(url, ledgerFile, fixturesDir) {
    const { plan, txs, milestoneTail } = load(ledgerFile, fixturesDir);
    const api = composeAPI({ provider: url });
    const { send } = createHttpClient({ provider: url });
    const objects = [...txs.values()].map((tx) => tx.object);
    const where = (keep) => objects.filter(keep).sort(byHash);
    const balanceAt = (address, m) => (plan.snapshot[address] || 0) +
        objects.filter((o) => o.address === address && txs.get(o.hash).milestone > 0 &&
            txs.get(o.hash).milestone <= m).reduce((sum, o) => sum + o.value, 0);
    assert.ok(txs.size >= 140, `${txs.size} fixture transactions`);
    assert.strictEqual(milestoneTail.size, 3);

    await check("getNodeInfo names the newest milestone and the Coordinator", async () => {
        const info = await api.getNodeInfo();
        assert.strictEqual(info.appName, "permanode");
        assert.strictEqual(info.latestMilestoneIndex, 3);
        assert.strictEqual(info.latestMilestone, milestoneTail.get(3));
        assert.strictEqual(info.latestSolidSubtangleMilestoneIndex, 3);
        assert.strictEqual(info.milestoneStartIndex, 1);
        assert.strictEqual(info.coordinatorAddress, plan.coordinator);
    });

    await check("getTrytes gives every transaction's trytes, and nines for an unknown hash", async () => {
        const hashes = [...txs.keys()];
        const trytes = await api.getTrytes([...hashes, "A".repeat(81)]);
        assert.strictEqual(trytes.length, hashes.length + 1);
        hashes.forEach((hash, i) => assert.strictEqual(trytes[i], txs.get(hash).trytes, hash));
        assert.strictEqual(trytes[hashes.length], "9".repeat(2673));
    });

    await check("findTransactionObjects by address (with checksum) and by bundle", async () => {
        const addresses = [...new Set(objects.map((o) => o.address))];
        for (const address of addresses) {
            const found = await api.findTransactionObjects({ addresses: [addChecksum(address)] });
            assert.deepStrictEqual(found.sort(byHash), where((o) => o.address === address), address);
        }
        const bundles = [...new Set(objects.map((o) => o.bundle))];
        for (const bundle of bundles) {
            const found = await api.findTransactionObjects({ bundles: [bundle] });
            assert.deepStrictEqual(found.sort(byHash), where((o) => o.bundle === bundle), bundle);
        }
        // Two fields: their intersection.
        const input = objects.find((o) => o.hash.startsWith("DKZYSMJA"));
        const both = await api.findTransactions({ addresses: [input.address], bundles: [input.bundle] });
        assert.deepStrictEqual(both.sort(), where((o) => o.address === input.address && o.bundle === input.bundle).map((o) => o.hash));
        assert.ok(both.length >= 2);
        // Tags (as iota.js pads them) and approvees.
        const sample = objects.find((o) => o.hash.startsWith("ROILTKTL"));
        const tagged = await api.findTransactions({ tags: ["MINEIOTADOTCOM"] });
        assert.deepStrictEqual(tagged.sort(), where((o) => o.tag === sample.tag).map((o) => o.hash));
        const approvers = await api.findTransactions({ approvees: [sample.branchTransaction] });
        assert.deepStrictEqual(approvers.sort(), where((o) => o.trunkTransaction === sample.branchTransaction ||
            o.branchTransaction === sample.branchTransaction).map((o) => o.hash));
    });

    await check("findTransactions with 1500 addresses: iota.js sends two batches", async () => {
        const sample = objects.find((o) => o.hash.startsWith("ROILTKTL"));
        const addresses = [addChecksum(sample.address)];
        for (let i = 1; i < 1500; i++) {
            addresses.push(addChecksum(String(i).replace(/[0-9]/g, (d) => "ABCDEFGHIJ"[d]).padEnd(81, "9")));
        }
        const found = await api.findTransactions({ addresses });
        assert.deepStrictEqual(found.sort(), where((o) => o.address === sample.address).map((o) => o.hash));
    });

    await check("getBundle assembles and validates the confirmed value bundles from their tails", async () => {
        let value = 0;
        for (const bundle of new Set(objects.filter((o) => txs.get(o.hash).milestone > 0).map((o) => o.bundle))) {
            const tail = objects.find((o) => o.bundle === bundle && o.currentIndex === 0);
            const got = await api.getBundle(tail.hash);
            const expected = where((o) => o.bundle === bundle).sort((a, b) => a.currentIndex - b.currentIndex);
            assert.deepStrictEqual(got, expected, bundle);
            assert.ok(isBundle(got), bundle);
            value += got.some((o) => o.value !== 0);
        }
        assert.strictEqual(value, 4); // the iota.js sample, BJVQHA... and the two migrations
        const notTail = objects.find((o) => o.hash.startsWith("ROILTKTL"));
        await assert.rejects(api.getBundle(notTail.hash), /tail/i);
    });

    await check("getInclusionStates follows the confirming milestones", async () => {
        const hashes = [...txs.keys()];
        const states = await api.getInclusionStates([...hashes, "A".repeat(81)]);
        assert.deepStrictEqual(states, [...hashes.map((h) => txs.get(h).milestone > 0), false]);
        assert.strictEqual(states.filter((s) => s).length, 25);
    });

    await check("getBalances at the newest milestone, and at each one through the raw command", async () => {
        const addresses = [...new Set([...objects.filter((o) => o.value !== 0).map((o) => o.address),
            ...Object.keys(plan.snapshot)])];
        const latest = await api.getBalances(addresses.map((a) => addChecksum(a)));
        assert.strictEqual(latest.milestoneIndex, 3);
        assert.deepStrictEqual(latest.references, [milestoneTail.get(3)]);
        assert.deepStrictEqual(latest.balances, addresses.map((a) => balanceAt(a, 3)));
        const seen = [];
        for (const m of [1, 2, 3]) {
            const at = await send({ command: "getBalances", addresses, milestoneIndex: m });
            assert.strictEqual(at.milestoneIndex, m);
            assert.deepStrictEqual(at.references, [milestoneTail.get(m)]);
            assert.deepStrictEqual(at.balances, addresses.map((a) => String(balanceAt(a, m))), `at ${m}`);
            seen.push(JSON.stringify(at.balances));
        }
        assert.strictEqual(new Set(seen).size, 3);
    });

    await check("wereAddressesSpentFrom: the inputs of confirmed bundles only", async () => {
        const addresses = [...new Set(objects.map((o) => o.address))];
        const states = await api.wereAddressesSpentFrom(addresses.map((a) => addChecksum(a)));
        assert.deepStrictEqual(states, addresses.map((a) => objects.some((o) => o.address === a && o.value < 0 &&
            txs.get(o.hash).milestone > 0)));
        assert.strictEqual(states.filter((s) => s).length, 4);
    });

    await check("errors reach iota.js with IRI's message", async () => {
        await assert.rejects(send({ command: "getTrytez" }), /Command \[getTrytez\] is unknown/);
        await assert.rejects(send({ command: "attachToTangle" }), /not available on this node/);
        await assert.rejects(send({ command: "getBalances", addresses: [NINES], milestoneIndex: 9 }),
            /holds no milestone 9/);
        await assert.rejects(send({ command: "getTrytes", hashes: ["ABC"] }), /Invalid hashes input.*"ABC"/);
    });

    console.log(`http_legacy_client_test: ${checks} checks passed against ${url}`);
}

const args = process.argv.slice(2);
if (args.length === 3) {
    main(...args).catch((e) => {
        console.error(e);
        process.exit(1);
    });
} else {
    console.error("usage: node http_legacy_client_test.js URL LEDGER_JSON LEGACY_FIXTURES_DIR");
    process.exit(2);
}
