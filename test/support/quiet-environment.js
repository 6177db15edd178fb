// The Jest environment of the suite: the library's own log lines (the default logger's `<time> WARN
// onemodelcontext ...` lines on stderr) are held back while a test runs and printed only when that test
// fails, with the lines written outside any test (in beforeAll, at import) in front of the first failure.
// Everything else written to stderr passes through. Tests that read the log (a spy on process.stderr.write,
// a logger option of their own) see every line as before: the spy wraps this writer.
const { TestEnvironment } = require('jest-environment-node');
require('./code-cache');

const LIBRARY_LINE = /^\d{4}-\d\d-\d\dT[\d:.]+Z (ERROR|WARN|INFO|DEBUG) onemodelcontext[ :]/;

class QuietEnvironment extends TestEnvironment {
  /** Lines written outside any test, then those of the running test. */
  outside = [];
  current = undefined;
  original = undefined;

  async setup() {
    await super.setup();
    const stderr = process.stderr;
    const original = stderr.write;
    this.original = original;
    const held = (chunk) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
      if (text === undefined || !LIBRARY_LINE.test(text)) return false;
      (this.current ?? this.outside).push(text);
      return true;
    };
    stderr.write = function write(chunk, ...rest) {
      if (!held(chunk)) return original.call(this, chunk, ...rest);
      const done = rest.find((r) => typeof r === 'function');
      if (done) process.nextTick(done);
      return true;
    };
  }

  async teardown() {
    if (this.original) process.stderr.write = this.original;
    await super.teardown();
  }

  handleTestEvent(event) {
    if (event.name === 'test_start') this.current = [];
    else if (event.name === 'test_done') {
      if (event.test.errors.length > 0) this.print(event.test);
      this.current = undefined;
    } else if (event.name === 'hook_failure') this.print(undefined);
  }

  print(test) {
    const lines = [...this.outside, ...(this.current ?? [])];
    this.outside = [];
    if (this.current) this.current = [];
    if (lines.length === 0) return;
    const name = test ? `"${test.name}"` : 'a hook';
    this.original.call(process.stderr, `\n--- the library's log lines before ${name} failed:\n${lines.join('')}---\n`);
  }
}

module.exports = QuietEnvironment;
