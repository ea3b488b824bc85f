// Cross-checks the Chrysalis (protocol v1) codec against @iota/iota.js 1.8.6 (installed under
// the alias iota-js-chrysalis, beside 2.0.0-rc.4 for Stardust).
//
// usage: node chrysalis_crosscheck.js PERMANODE_CLI FIXTURES_DIR
//
// For every real message of chrysalis/chrysalis_messages.json:
//   - the message JSON `permanode decode --protocol chrysalis` prints equals what iota.js's
//     deserializeMessage returns;
//   - iota.js's serializeMessage of our JSON gives the fixture's bytes back.
"use strict";

const assert = require("assert");
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const v1 = require("iota-js-chrysalis");
// iota.js 1.8.6 reads and writes through the streams of its own util.js (1.8.6).
const v1Util = require(require.resolve("@iota/util.js", {
    paths: [path.dirname(require.resolve("iota-js-chrysalis"))],
}));

const [cli, fixturesDir] = process.argv.slice(2);
if (!cli || !fixturesDir) {
    console.error("usage: node chrysalis_crosscheck.js PERMANODE_CLI FIXTURES_DIR");
    process.exit(2);
}

const fixture = JSON.parse(
    fs.readFileSync(path.join(fixturesDir, "chrysalis", "chrysalis_messages.json"), "utf8"));
const messages = fixture.messages;
assert.strictEqual(messages.length, 11, "the fixture holds 11 messages");

const ours = execFileSync(cli, ["decode", "--protocol", "chrysalis", "-"], {
    input: messages.map((m) => m.message_hex).join("\n") + "\n",
    encoding: "utf8",
}).trim().split("\n").map((line) => JSON.parse(line));
assert.strictEqual(ours.length, messages.length, "one JSON line per message");

let checked = 0;
messages.forEach((record, i) => {
    const bytes = Buffer.from(record.message_hex, "hex");
    // iota.js leaves absent optional parts undefined; a JSON round trip drops them as we do.
    const theirs = JSON.parse(JSON.stringify(v1.deserializeMessage(new v1Util.ReadStream(bytes))));
    assert.deepStrictEqual(ours[i].message, theirs, `${record.label}: same JSON as iota.js`);

    const stream = new v1Util.WriteStream();
    v1.serializeMessage(stream, ours[i].message);
    assert.strictEqual(Buffer.from(stream.finalBytes()).toString("hex"), record.message_hex,
        `${record.label}: iota.js serializes our JSON to the fixture bytes`);
    checked++;
});
console.log(`chrysalis_crosscheck: ${checked} messages equal with @iota/iota.js 1.8.6`);
