// `npm run dev`: the watch loop of a project compiled by tsc. TypeScript's watch compiler recompiles src/
// into dist/ on every change; after each build without errors the whole cluster restarts (dist/start.js is
// stopped with SIGTERM, which stops Redis, nginx and the instances, then started again). A build with
// errors prints them and keeps the running cluster.
//
// The instances are the `node dist/main.js` processes that `npm start` runs, so this loop compiles with
// tsc like the build does. Its tools need no generated facts module: every description and type hint is
// written in the decorators.
import { fork } from 'node:child_process';
import ts from 'typescript';

const ENTRY = 'dist/start.js';
const STOP_TIMEOUT_MS = 5_000;
let app;
let restarting = false;

function start() {
  app = fork(ENTRY, process.argv.slice(2), { stdio: 'inherit' });
}

function restart() {
  if (restarting) return; // the next start loads the newest build anyway
  if (!app || app.exitCode !== null || app.signalCode !== null) return start();
  restarting = true;
  const stopping = app;
  stopping.once('exit', () => {
    restarting = false;
    start();
  });
  stopping.kill('SIGTERM');
  // One that has not stopped after a few seconds (a connection or a call keeping it busy) is killed.
  setTimeout(() => stopping.exitCode === null && stopping.signalCode === null && stopping.kill('SIGKILL'), STOP_TIMEOUT_MS).unref();
}

const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };
const host = ts.createWatchCompilerHost(
  'tsconfig.json',
  {},
  ts.sys,
  ts.createEmitAndSemanticDiagnosticsBuilderProgram,
  (diagnostic) => console.error(ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost)),
  // Called with an error count once a build is done ("Found 0 errors. Watching for file changes.").
  (diagnostic, _newLine, _options, errorCount) => {
    console.error(ts.flattenDiagnosticMessageText(diagnostic.messageText, ts.sys.newLine));
    if (errorCount === 0) restart();
  },
);
ts.createWatchProgram(host);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!app || app.exitCode !== null || app.signalCode !== null) process.exit(0);
    app.once('exit', () => process.exit(0));
    app.kill(signal);
  });
}
