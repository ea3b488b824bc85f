// Cross-checks the legacy (ternary) codec against iota.js's legacy packages, 1.0.0-beta.30
// (@iota/transaction-converter, @iota/bundle-validator, @iota/checksum, as @iota/core uses them).
//
// usage: node legacy_crosscheck.js PERMANODE_CLI CODEC_DUMP FIXTURES_DIR
//
// For every transaction of FIXTURES_DIR/legacy/*.json and 400 generated ones:
//   - the object `permanode decode --protocol legacy` prints equals asTransactionObject's, hash
//     included (for the one transaction in the old layout, the fields the layouts share, and its
//     81-tryte nonce where iota.js reads tag, attachment timestamps and nonce);
//   - the address checksum equals @iota/checksum's.
// For every bundle of the fixtures (assembled from its tail along the trunks, as a node did),
// bundles signed at security 1, 2, 3 and 1+3+2, and broken copies of the value bundles
// (a signature tryte, a value, two transactions swapped, a bundle hash), our validity equals
// isBundle's.
// For a ledger of `permanode generate --protocol legacy` (4 milestones): every .dmp line as
// above and hashed as the line says, every bundle (value, spam, milestone) valid for isBundle,
// and broken copies of its value bundles invalid for both.
"use strict";

const assert = require("assert");
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { asTransactionObject, asTransactionTrytes } = require("@iota/transaction-converter");
const isBundle = require("@iota/bundle-validator").default;
const { addChecksum } = require("@iota/checksum");

const [cli, codecDump, fixturesDir] = process.argv.slice(2);
if (!cli || !codecDump || !fixturesDir) {
    console.error("usage: node legacy_crosscheck.js PERMANODE_CLI CODEC_DUMP FIXTURES_DIR");
    process.exit(2);
}

function run(program, args, lines) {
    return execFileSync(program, args, {
        input: lines.join("\n") + "\n",
        encoding: "utf8",
        maxBuffer: 1 << 30,
    }).trim().split("\n").map((line) => JSON.parse(line));
}

// asTransactionObject, computed once per transaction (it hashes the trytes with Curl-P-81, and
// assemble() looks at every transaction of a fixture file once per bundle of the file).
const transactionObjects = new Map();
function objectOf(trytes) {
    if (!transactionObjects.has(trytes)) transactionObjects.set(trytes, Object.freeze(asTransactionObject(trytes)));
    return transactionObjects.get(trytes);
}

// Our decoding of every transaction against asTransactionObject's.
function checkTransactions(trytesList, label) {
    const ours = run(cli, ["decode", "--protocol", "legacy", "-"], trytesList);
    assert.strictEqual(ours.length, trytesList.length, "one JSON line per transaction");
    let old = 0;
    trytesList.forEach((trytes, i) => {
        const theirs = objectOf(trytes);
        if (ours[i].layout === "old") {
            // iota.js knows only the current layout: compare what both layouts share.
            old++;
            for (const key of ["hash", "signatureMessageFragment", "address", "value", "obsoleteTag",
                "timestamp", "currentIndex", "lastIndex", "bundle", "trunkTransaction",
                "branchTransaction"]) {
                assert.deepStrictEqual(ours[i][key], theirs[key], `${label(i)}: ${key}`);
            }
            assert.strictEqual(ours[i].nonce, trytes.slice(2592), `${label(i)}: 81-tryte nonce`);
            assert.strictEqual(ours[i].tag, ours[i].obsoleteTag, `${label(i)}: the old tag`);
            return;
        }
        assert.deepStrictEqual(ours[i], theirs, `${label(i)}: same object as asTransactionObject`);
    });
    const addresses = trytesList.map((t) => t.slice(2187, 2268));
    const checksums = run(codecDump, ["legacy-checksum"], addresses);
    addresses.forEach((address, i) => {
        assert.strictEqual(checksums[i].checksum, addChecksum(address).slice(81),
            `${label(i)}: address checksum`);
    });
    return old;
}

// Our verdict on each bundle (arrays of trytes in bundle order) against isBundle's; returns
// the number of valid ones.
function checkBundles(bundles, label) {
    const verdicts = run(codecDump, ["legacy-bundle"], bundles.map((b) => b.join(" ")));
    let valid = 0;
    bundles.forEach((bundle, i) => {
        const theirs = isBundle(bundle.map((trytes) => ({ ...objectOf(trytes) })));
        assert.strictEqual(verdicts[i].valid, theirs,
            `${label(i)}: valid ${verdicts[i].valid} (${verdicts[i].check}: ${verdicts[i].detail}), ` +
            `isBundle ${theirs}`);
        valid += theirs;
    });
    return valid;
}

// The bundle `hash` among `txs` from its first tail along the trunks, else (a bundle never
// attached, or copies whose trunks lead out of the bundle) in index order when each index occurs
// once; null when incomplete. tests/unit/codec/legacy_fixtures.hpp assembles them alike.
function assemble(txs, hash) {
    const members = new Map();
    for (const tx of txs) {
        const object = objectOf(tx.trytes);
        if (object.bundle === hash) members.set(object.hash, { object, trytes: tx.trytes });
    }
    const tails = [...members.values()].filter((m) => m.object.currentIndex === 0)
        .sort((a, b) => (a.object.hash < b.object.hash ? -1 : 1));
    for (const tail of tails) {
        const chain = [tail];
        while (chain.length <= chain[chain.length - 1].object.lastIndex) {
            const next = members.get(chain[chain.length - 1].object.trunkTransaction);
            if (!next) break;
            chain.push(next);
        }
        if (chain.length > chain[chain.length - 1].object.lastIndex) return chain.map((m) => m.trytes);
    }
    const byIndex = [];
    for (const m of members.values()) {
        if (byIndex[m.object.currentIndex] !== undefined) return null;
        byIndex[m.object.currentIndex] = m.trytes;
    }
    const last = byIndex.length - 1;
    for (let i = 0; i <= last; i++) {
        if (byIndex[i] === undefined || objectOf(byIndex[i]).lastIndex !== last) return null;
    }
    return byIndex.length > 0 ? byIndex : null;
}

// Broken copies of a value bundle, each failing one check.
function broken(bundle) {
    const objects = bundle.map((trytes) => asTransactionObject(trytes));
    const out = [];
    const change = (edit) => {
        const copy = objects.map((o) => ({ ...o }));
        edit(copy);
        out.push(copy.map((o) => asTransactionTrytes(o)));
    };
    const input = objects.findIndex((o) => o.value < 0);
    change((c) => {
        const s = c[input].signatureMessageFragment;
        c[input].signatureMessageFragment = s.slice(0, 10) + (s[10] === "A" ? "B" : "A") + s.slice(11);
    });
    change((c) => { c[0].value += 1; });
    change((c) => { c[0].value += 1; c[c.length - 1].value -= 1; });
    change((c) => { [c[0], c[1]] = [c[1], c[0]]; });
    change((c) => { c[0].bundle = c[0].bundle.slice(0, 80) + (c[0].bundle[80] === "9" ? "A" : "9"); });
    return out;
}

// --- the fixtures ---
const files = fs.readdirSync(path.join(fixturesDir, "legacy")).filter((f) => f.endsWith(".json")).sort();
const fixtureTxs = [];
const fixtureBundles = [];
const valueBundles = [];
for (const file of files) {
    const fixture = JSON.parse(fs.readFileSync(path.join(fixturesDir, "legacy", file), "utf8"));
    fixture.transactions.forEach((tx, i) => fixtureTxs.push({ ...tx, label: `${file} transaction ${i}` }));
    for (const entry of fixture.bundles) {
        const bundle = assemble(fixture.transactions, entry.bundle);
        if (!bundle) continue;
        fixtureBundles.push({ bundle, label: `${file} bundle ${entry.bundle}` });
        if (bundle.some((trytes) => objectOf(trytes).value < 0)) valueBundles.push(bundle);
    }
}
const old = checkTransactions(fixtureTxs.map((t) => t.trytes), (i) => fixtureTxs[i].label);
fixtureTxs.forEach((tx) => assert.strictEqual(objectOf(tx.trytes).hash, tx.hash, tx.label));
assert.strictEqual(fixtureTxs.length, 153, "153 fixture transactions");
assert.strictEqual(old, 1, "one transaction in the old layout");
const validFixtureBundles = checkBundles(fixtureBundles.map((b) => b.bundle), (i) => fixtureBundles[i].label);
// As the unit tests count them: 68 valid, 5 broken (the 17 others are incomplete).
assert.strictEqual(fixtureBundles.length, 73, "73 complete fixture bundles");
assert.strictEqual(validFixtureBundles, 68, "68 valid fixture bundles");
console.log(`legacy_crosscheck: ${fixtureTxs.length} fixture transactions (${old} in the old layout) ` +
    `and ${fixtureBundles.length} fixture bundles (${validFixtureBundles} valid) equal with iota.js`);

// --- generated ---
const generated = run(codecDump, ["legacy-generate", "400", "23"], []);
const randomTxs = generated.filter((g) => typeof g.trytes === "string").map((g) => g.trytes);
const signed = generated.filter((g) => Array.isArray(g.trytes));
assert.strictEqual(randomTxs.length, 400);
assert.strictEqual(signed.length, 4);
checkTransactions(randomTxs, (i) => `generated transaction ${i}`);
const signedValid = checkBundles(signed.map((g) => g.trytes), (i) => `signed at security ${signed[i].security}`);
assert.strictEqual(signedValid, signed.length, "every signed bundle is valid");
checkTransactions(signed.flatMap((g) => g.trytes), (i) => `signed bundle transaction ${i}`);

const brokenBundles = [...valueBundles, ...signed.map((g) => g.trytes)].flatMap(broken);
const brokenValid = checkBundles(brokenBundles, (i) => `broken bundle ${i}`);
assert.strictEqual(brokenValid, 0, "no broken bundle is valid");
console.log(`legacy_crosscheck: ${randomTxs.length} generated transactions, ${signed.length} signed ` +
    `bundles and ${brokenBundles.length} broken copies of ${valueBundles.length + signed.length} ` +
    "value bundles equal with iota.js");

// --- a ledger of `permanode generate --protocol legacy` ---
// Every .dmp line decodes to asTransactionObject's object with the line's hash, and every bundle
// (assembled from its tail along the trunks) is valid for isBundle: value bundles with their
// signatures, spam and milestone bundles.
const os = require("os");
const dmpPath = path.join(os.tmpdir(), `permanode-legacy-crosscheck-${process.pid}.dmp`);
execFileSync(cli, ["generate", "--protocol", "legacy", "--milestones", "4", "--tx-share", "0.3",
    "--genesis-addresses", "10", "--seed", "23", "-o", dmpPath], { stdio: ["ignore", "ignore", "inherit"] });
const dmp = fs.readFileSync(dmpPath, "utf8").trim().split("\n").map((line) => {
    const [hash, trytes, snapshotIndex] = line.split(",");
    return { hash, trytes, snapshotIndex: Number(snapshotIndex) };
});
fs.unlinkSync(dmpPath);
checkTransactions(dmp.map((l) => l.trytes), (i) => `generated ledger line ${i + 1}`);
dmp.forEach((l, i) => assert.strictEqual(objectOf(l.trytes).hash, l.hash,
    `generated ledger line ${i + 1}: hash`));
const byBundle = new Map(); // the bundle field, trytes 2349 to 2430
for (const l of dmp) {
    const hash = l.trytes.slice(2349, 2430);
    if (!byBundle.has(hash)) byBundle.set(hash, []);
    byBundle.get(hash).push(l);
}
const ledgerBundleHashes = [...byBundle.keys()];
const ledgerBundles = ledgerBundleHashes.map((hash) => assemble(byBundle.get(hash), hash));
ledgerBundles.forEach((b, i) => assert.ok(b, `generated bundle ${ledgerBundleHashes[i]} complete`));
const ledgerValid = checkBundles(ledgerBundles, (i) => `generated bundle ${ledgerBundleHashes[i]}`);
assert.strictEqual(ledgerValid, ledgerBundles.length, "every generated bundle is valid");
const ledgerValue = ledgerBundles.filter((b) => b.some((t) => objectOf(t).value < 0));
assert.ok(ledgerValue.length >= 5, "the generated ledger moves value");
const ledgerBroken = ledgerValue.slice(0, 10).flatMap(broken);
assert.strictEqual(checkBundles(ledgerBroken, (i) => `broken generated bundle ${i}`), 0,
    "no broken copy of a generated bundle is valid");
console.log(`legacy_crosscheck: ${dmp.length} transactions of a generated ledger in ` +
    `${ledgerBundles.length} bundles (${ledgerValue.length} moving value, all valid) and ` +
    `${ledgerBroken.length} broken copies equal with iota.js`);
