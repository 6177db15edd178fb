// A Jest environment whose test context forbids code generation from strings, as
// `node --disallow-code-generation-from-strings`, a strict CSP or Cloudflare Workers do: `eval` and
// `new Function` throw an EvalError inside the tests. (The flag on the Jest process itself would not
// reach the tests: each runs in a vm context of its own, created with code generation allowed.)
const vm = require('node:vm');
const QuietEnvironment = require('./quiet-environment');

class NoCodegenEnvironment extends QuietEnvironment {
  constructor(config, context) {
    const createContext = vm.createContext;
    vm.createContext = (sandbox, options) => createContext(sandbox, { ...options, codeGeneration: { strings: false, wasm: false } });
    try {
      super(config, context);
    } finally {
      vm.createContext = createContext;
    }
  }
}

module.exports = NoCodegenEnvironment;
