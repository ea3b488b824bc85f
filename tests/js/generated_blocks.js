// Checks a ledger written by `permanode generate` with @iota/iota.js 2.0.0-rc.4: every block
// deserializes, serializes back to the same bytes, and its ID (BLAKE2b-256 of the bytes, as
// iota.js's TransactionHelper / Blake2b compute it) is consistent; transaction payloads have one
// unlock per input, milestone payloads carry the index of the milestone before the one whose cone
// holds them, and a block's parents are sorted and unique.
//
// usage: node generated_blocks.js PERMANODE_CLI
"use strict";

const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const iota = require("@iota/iota.js");
const { Blake2b } = require("@iota/crypto.js");
const { ReadStream, WriteStream, Converter } = require("@iota/util.js");

const [cli] = process.argv.slice(2);
if (!cli) {
    console.error("usage: node generated_blocks.js PERMANODE_CLI");
    process.exit(2);
}

const file = path.join(os.tmpdir(), `permanode-generated-${process.pid}.ndjson`);
execFileSync(cli, ["generate", "--milestones", "40", "--tx-share", "0.5", "--seed", "17",
    "-o", file]);
const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0);
fs.unlinkSync(file);

let checked = 0;
let skipped = 0;
let failures = 0;
const seen = new Set();
const kinds = {};
function fail(message) {
    failures++;
    if (failures <= 20) console.error(`FAIL ${message}`);
}

for (const line of lines) {
    const bundle = JSON.parse(line);
    bundle.blocks.forEach((entry, i) => {
        const where = `milestone ${bundle.milestone_index} block ${i}`;
        const bytes = Converter.hexToBytes(entry.block.slice(2));
        let block;
        try {
            // iota.js refuses blocks under 50 bytes, such as one without payload and with one
            // parent, which the protocol allows (and our codec decodes).
            if (bytes.length < 50) {
                skipped++;
                return;
            }
            block = iota.deserializeBlock(new ReadStream(bytes));
        } catch (error) {
            fail(`${where}: iota.js cannot deserialize: ${error.message}`);
            return;
        }
        // iota.js reads an empty tag as "" and then writes it back with a wrong length; give it
        // the "0x" its serializer expects (the same quirk codec_crosscheck.js normalises).
        if (block.payload && block.payload.type === iota.TAGGED_DATA_PAYLOAD_TYPE && block.payload.tag === "") {
            block.payload.tag = "0x";
        }
        const stream = new WriteStream();
        iota.serializeBlock(stream, block);
        if (Converter.bytesToHex(stream.finalBytes()) !== Converter.bytesToHex(bytes)) {
            fail(`${where}: iota.js re-serializes it differently`);
        }
        const id = Converter.bytesToHex(Blake2b.sum256(bytes), true);
        if (seen.has(id)) fail(`${where}: block ID ${id} appears twice`);
        seen.add(id);
        const sorted = [...block.parents].sort();
        if (sorted.join() !== block.parents.join() || new Set(sorted).size !== sorted.length) {
            fail(`${where}: parents are not sorted and unique`);
        }
        const type = block.payload ? block.payload.type : "none";
        kinds[type] = (kinds[type] || 0) + 1;
        if (type === iota.TRANSACTION_PAYLOAD_TYPE) {
            if (block.payload.unlocks.length !== block.payload.essence.inputs.length) {
                fail(`${where}: unlock count differs from input count`);
            }
            if (entry.inclusion_state === "no_transaction") fail(`${where}: transaction not included`);
        }
        if (type === iota.MILESTONE_PAYLOAD_TYPE && block.payload.index !== bundle.milestone_index - 1) {
            fail(`${where}: carries milestone ${block.payload.index}`);
        }
        checked++;
    });
}

if (!kinds[iota.TRANSACTION_PAYLOAD_TYPE] || !kinds[iota.MILESTONE_PAYLOAD_TYPE]) {
    fail(`expected transactions and milestones among the blocks, got ${JSON.stringify(kinds)}`);
}
console.log(`${checked} generated blocks checked with iota.js (${JSON.stringify(kinds)}), ` +
    `${skipped} under its 50-byte minimum skipped, ${failures} failures`);
process.exit(failures === 0 ? 0 : 1);
