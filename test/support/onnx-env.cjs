// Jest environment of every test (jest.config.js), for onnxruntime-node. Jest runs each test file in a vm context whose typed-array constructors differ from
// the ones the native addon returns, so onnxruntime-common's `data instanceof Float32Array` checks
// fail ("A float32 tensor's data must be type of function Float32Array()"). Sharing the outer
// realm's constructors makes both sides agree.
const { TestEnvironment } = require('jest-environment-node');

const SHARED = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class OnnxEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name];
    }
  }
}

module.exports = OnnxEnvironment;
