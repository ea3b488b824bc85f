// Cross-checks the Chrysalis (protocol v1) codec against @iota/iota.js 1.8.6 (installed under
// the alias iota-js-chrysalis, beside 2.0.0-rc.4 for Stardust).
//
// usage: node chrysalis_crosscheck.js PERMANODE_CLI FIXTURES_DIR
//
// For every real message of chrysalis/chrysalis_messages.json, and for every message of a
// ledger `permanode generate --protocol chrysalis` writes:
//   - the message JSON `permanode decode --protocol chrysalis` prints equals what iota.js's
//     deserializeMessage returns;
//   - iota.js's serializeMessage of our JSON gives the same bytes back;
//   - the message ID we print is the BLAKE2b-256 of the bytes as iota.js's crypto.js hashes them.
"use strict";

const assert = require("assert");
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const v1 = require("iota-js-chrysalis");
// iota.js 1.8.6 reads, writes and hashes through its own util.js and crypto.js (1.8.6).
const v1Paths = { paths: [path.dirname(require.resolve("iota-js-chrysalis"))] };
const v1Util = require(require.resolve("@iota/util.js", v1Paths));
const { Blake2b } = require(require.resolve("@iota/crypto.js", v1Paths));

const [cli, fixturesDir] = process.argv.slice(2);
if (!cli || !fixturesDir) {
    console.error("usage: node chrysalis_crosscheck.js PERMANODE_CLI FIXTURES_DIR");
    process.exit(2);
}

// Decodes every hex message with one `permanode decode --protocol chrysalis -` and checks each
// against iota.js; `label(i)` names message i in a failure. Returns iota.js's messages.
function crossCheck(hexes, label) {
    const ours = execFileSync(cli, ["decode", "--protocol", "chrysalis", "-"], {
        input: hexes.join("\n") + "\n",
        encoding: "utf8",
        maxBuffer: 1 << 30,
    }).trim().split("\n").map((line) => JSON.parse(line));
    assert.strictEqual(ours.length, hexes.length, "one JSON line per message");
    return hexes.map((hex, i) => {
        const bytes = Buffer.from(hex, "hex");
        // iota.js leaves absent optional parts undefined; a JSON round trip drops them as we do.
        const theirs = JSON.parse(JSON.stringify(v1.deserializeMessage(new v1Util.ReadStream(bytes))));
        assert.deepStrictEqual(ours[i].message, theirs, `${label(i)}: same JSON as iota.js`);

        const stream = new v1Util.WriteStream();
        v1.serializeMessage(stream, ours[i].message);
        assert.strictEqual(Buffer.from(stream.finalBytes()).toString("hex"), hex,
            `${label(i)}: iota.js serializes our JSON to the same bytes`);
        assert.strictEqual(ours[i].messageId, Buffer.from(Blake2b.sum256(bytes)).toString("hex"),
            `${label(i)}: the message ID is the BLAKE2b-256 of the bytes`);
        return theirs;
    });
}

// --- the real messages ---
const fixture = JSON.parse(
    fs.readFileSync(path.join(fixturesDir, "chrysalis", "chrysalis_messages.json"), "utf8"));
const messages = fixture.messages;
assert.strictEqual(messages.length, 11, "the fixture holds 11 messages");
crossCheck(messages.map((m) => m.message_hex), (i) => messages[i].label);
console.log(`chrysalis_crosscheck: ${messages.length} real messages equal with @iota/iota.js 1.8.6`);

// --- a generated ledger: small cones, many transactions, enough milestones for receipts ---
const file = path.join(os.tmpdir(), `permanode-chrysalis-${process.pid}.ndjson`);
execFileSync(cli, ["generate", "--protocol", "chrysalis", "--milestones", "40",
    "--blocks-per-milestone", "20-40", "--tx-share", "0.4", "--seed", "17", "-o", file]);
const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0);
fs.unlinkSync(file);
const places = [];
const hexes = [];
for (const line of lines) {
    const bundle = JSON.parse(line);
    bundle.blocks.forEach((entry, i) => {
        places.push(`milestone ${bundle.milestone_index} message ${i}`);
        hexes.push(entry.block.slice(2));
    });
}
const generated = crossCheck(hexes, (i) => places[i]);

// Every part the generator writes went through iota.js.
const seen = {};
const see = (what) => { seen[what] = (seen[what] || 0) + 1; };
for (const message of generated) {
    const payload = message.payload;
    if (!payload) { see("no payload"); continue; }
    see(["transaction", "milestone", "indexation"][payload.type]);
    if (payload.type === v1.TRANSACTION_PAYLOAD_TYPE) {
        payload.essence.outputs.forEach((o) => see(o.type === 1 ? "dust allowance" : "single output"));
        payload.unlockBlocks.forEach((u) => see(u.type === 1 ? "reference unlock" : "signature unlock"));
        if (payload.essence.payload) see("essence indexation");
    }
    if (payload.type === v1.MILESTONE_PAYLOAD_TYPE && payload.receipt) see("receipt");
}
for (const what of ["transaction", "milestone", "indexation", "no payload", "dust allowance",
    "reference unlock", "essence indexation", "receipt"]) {
    assert.ok(seen[what] > 0, `the generated ledger has a ${what}: ${JSON.stringify(seen)}`);
}
console.log(`chrysalis_crosscheck: ${generated.length} generated messages of ${lines.length} ` +
    `milestones equal with @iota/iota.js 1.8.6 ${JSON.stringify(seen)}`);
