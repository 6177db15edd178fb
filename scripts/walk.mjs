/**
 * The walk of one `tools/call` over a 2025-11-25 HTTP session (issue 24: "stays" and "returns"), measured on a
 * compiled tree, one JS file per source file (`node node_modules/@typescript/native/bin/tsc -p tsconfig.bench.json`
 * writes dist-bench/src; `npm run bench` does too). Usage: node scripts/walk.mjs [dist-bench/src] (WALK_VERBOSE=1
 * prints the walk).
 *
 * Every stack seen while the request is in flight (at each async resource's creation, in the tool method, at the
 * response's end; after one warm-up call) is merged, per async segment, into a call tree; the depth-first walk of
 * those trees in time order is the walk, returns to a caller included. A stay is a run of frames in one file (or
 * room: the folder under src/server, else the floor); a return is a stay in a file or room the walk was in before.
 * Frames of node itself are left out; "ours+SDK" counts the MCP SDK's files too.
 *
 * Two stacks share a frame when its function and line are the same. An async function that creates two async
 * resources is then seen at two lines, as if it had returned to its caller and been called again (one stay in the
 * caller's file, one return, that no code takes). WALK_BY_FUNCTION=1 counts a frame as the same call when its
 * function and file are; when its line differs, the frames below it are new calls. That leaves those out.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const path = require('node:path');
const root = path.resolve(process.argv[2] ?? 'dist-bench/src');
require(require.resolve('reflect-metadata', { paths: [root] }));
const ah = require('node:async_hooks');
const http = require('node:http');
Error.stackTraceLimit = Infinity;
const { McpServer, Int32 } = require(path.join(root, 'index.js'));

let recording = false;
const stacks = []; // [segmentId, stackFrames[]]
function frames() {
  const e = {};
  Error.captureStackTrace(e);
  return e.stack
    .split('\n')
    .slice(1)
    .map((l) => l.trim());
}
function record() {
  if (!recording) return;
  stacks.push([ah.executionAsyncId(), frames()]);
}
ah.createHook({
  init() {
    record();
  },
}).enable();

const server = new McpServer({ name: 'walk', version: '1' }, { logger: false }).tool(
  'add',
  { params: { a: Int32, b: Int32 } },
  ({ a, b }) => {
    record();
    return a + b;
  },
);
const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (...args) {
  record();
  if (recording && String(args[0] ?? '').includes('"id":7')) setImmediate(done);
  return end.apply(this, args);
};

function post(url, headers, body) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

let report;
async function main() {
  const { url } = await server.serveHttp({ port: 0 });
  const init = await post(
    url,
    {},
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'w', version: '1' } },
    },
  );
  await init.text();
  const sid = init.headers.get('mcp-session-id');
  const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
  await (await post(url, h, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  // Warm: one call first, so lazy one-time work is not counted.
  await (await post(url, h, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } })).text();
  const finished = new Promise((r) => (report = r));
  recording = true;
  const res = await post(url, h, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } });
  const text = await res.text();
  await finished;
  console.log('answer', text.slice(0, 120));
  await server.close();
}

function done() {
  recording = false;
  analyse();
  report();
}

function parse(line) {
  const m = /^at (?:async )?(?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/.exec(line);
  if (!m) return undefined;
  return { fn: m[1] ?? '<anonymous>', file: m[2], line: m[3] };
}

function roomOf(file, withSdk) {
  if (file.startsWith(root)) {
    const rel = path.relative(root, file);
    const parts = rel.split(path.sep);
    if (parts[0] === 'server') return parts.length > 2 ? `server/${parts[1]}` : rel;
    return parts.length > 1 ? parts[0] : rel;
  }
  if (withSdk && file.includes('@modelcontextprotocol')) return 'sdk:' + file.split('@modelcontextprotocol/')[1].split('/')[0];
  return undefined;
}

const byFunction = process.env.WALK_BY_FUNCTION === '1';

function analyse() {
  for (const withSdk of [false, true]) {
    for (const unit of ['file', 'room']) {
      const seq = [];
      // Stacks in time order; per segment, a merged tree walked depth first (a new stack's frames below the common
      // prefix with the previous stack of the segment are new calls; leaving the common prefix returns).
      let prevSeg;
      let prev = [];
      for (const [seg, raw] of stacks) {
        const fr = raw
          .map(parse)
          .filter(Boolean)
          .reverse()
          .map((f) => ({
            ...f,
            key:
              unit === 'file'
                ? f.file.startsWith(root) || (withSdk && f.file.includes('@modelcontextprotocol'))
                  ? path.relative(root, f.file)
                  : undefined
                : roomOf(f.file, withSdk),
          }))
          .filter((f) => f.key !== undefined && (withSdk || !f.file.includes('node_modules')));
        if (seg !== prevSeg) prev = [];
        let common = 0;
        while (common < prev.length && common < fr.length && prev[common].fn === fr[common].fn) {
          if (byFunction ? prev[common].file !== fr[common].file : prev[common].line !== fr[common].line) break;
          common++;
          // The same call, gone on to another line: what either stack has below it are different calls.
          if (byFunction && prev[common - 1].line !== fr[common - 1].line) break;
        }
        // Returning up to the common ancestor, then calling down.
        for (let i = prev.length - 1; i >= common; i--) if (i - 1 >= 0) seq.push(prev[i - 1].key);
        for (let i = common; i < fr.length; i++) seq.push(fr[i].key);
        prev = fr;
        prevSeg = seg;
      }
      const stays = [];
      for (const k of seq) if (stays[stays.length - 1] !== k) stays.push(k);
      const seen = new Set();
      let returns = 0;
      for (const k of stays) {
        if (seen.has(k)) returns++;
        seen.add(k);
      }
      console.log(`${withSdk ? 'ours+SDK' : 'ours    '} by ${unit}: ${stays.length} stays in ${seen.size} ${unit}s, ${returns} returns`);
      if (process.env.WALK_VERBOSE && unit === 'room' && !withSdk) console.log(stays.join(' > '));
      if (process.env.WALK_VERBOSE && unit === 'file' && !withSdk) console.log(stays.join('\n  > '));
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
