'use strict';
// Runs the bundled CLI (dist/bundle/cli/main.cjs) the way Node runs a CommonJS module, but
// compiled with the V8 code cache the build made beside it (main.cjs.cache): most of what an
// embedded command costs at startup is compiling, and Node 20 caches no compiled code of its own.
// The cache is used only for the exact source it was made from, and only whole: its head holds
// the SHA-1 of that source and of the cache itself (V8 checks neither: a cache of a changed
// source of the same length would run the old code, a damaged one could crash it). V8 refuses it
// by itself for another Node version or other V8 flags, and the CLI then compiles as usual, only
// slower.
const { readFileSync } = require('node:fs');
const { Script } = require('node:vm');
const { dirname } = require('node:path');
const { createRequire, wrap } = require('node:module');
const { hash } = require('node:crypto');

/** The cache file's head: the SHA-1 (hex) of the source and of the rest of the file, a space between, then a newline. */
const HEAD = 82;

function cacheFor(file, digest) {
  try {
    const data = readFileSync(`${file}.cache`);
    if (data.length <= HEAD || data.toString('latin1', 0, 41) !== `${digest} ` || data[HEAD - 1] !== 10) return undefined;
    const payload = data.subarray(HEAD);
    return data.toString('latin1', 41, HEAD - 1) === hash('sha1', payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads `file` (a path) and returns its exports, whether the code cache served, and a way to
 * make the cache from what has run so far (the build runs commands first, so the functions they
 * compiled are in it).
 */
function loadBundle(file) {
  const source = readFileSync(file);
  const digest = hash('sha1', source);
  const cachedData = cacheFor(file, digest);
  const script = new Script(wrap(source.toString('utf8')), { filename: file, cachedData });
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    cached: cachedData !== undefined && !script.cachedDataRejected,
    makeCache: () => {
      const payload = script.createCachedData();
      return Buffer.concat([Buffer.from(`${digest} ${hash('sha1', payload)}\n`, 'latin1'), payload]);
    },
  };
}

module.exports = { loadBundle };
