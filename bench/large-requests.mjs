// Large requests against `cms sandbox serve` (issue 11, finding 11): how long another client
// waits while a ~9.8 MB item is created and PATCHed, and the server's peak RSS while many
// unauthenticated connections each send ~10 MB. Prints a Markdown table. Not asserted by tests.
//
//   npm run build && node bench/large-requests.mjs [--mb 9.8] [--connections 150]
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { api, articleBody, contentModel, startSandbox, token } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const MB = arg('mb', 9.8);
const CONNECTIONS = arg('connections', 150);

const rssOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

/** Runs `work` while a second client polls a cheap read; resolves the longest wait it saw (ms). */
async function stallDuring(url, bearer, work) {
  let stop = false;
  let maxWait = 0;
  const probe = (async () => {
    while (!stop) {
      const t = performance.now();
      await fetch(`${url}/v2/content/hubs?size=1`, { headers: { authorization: `Bearer ${bearer}` } }).then((r) => r.text());
      maxWait = Math.max(maxWait, performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t = performance.now();
  const status = await work();
  const took = performance.now() - t;
  stop = true;
  await probe;
  return { status, took, maxWait };
}

/** `n` raw connections, each POSTing `bytes` with no token; resolves the statuses seen. */
function floodUnauthenticated(url, n, bytes) {
  const { hostname, port } = new URL(url);
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  return Promise.all(
    Array.from({ length: n }, () =>
      new Promise((resolve) => {
        const socket = connect(Number(port), hostname);
        let answer = '';
        socket.on('data', (d) => (answer += d));
        socket.on('error', () => {});
        socket.on('close', () => resolve(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'reset'));
        socket.write(`POST /v2/content/hubs HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\nConnection: close\r\n\r\n`);
        let sent = 0;
        const pump = () => {
          while (sent < bytes) {
            const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
            sent += part.length;
            if (!socket.write(part)) return socket.once('drain', pump);
          }
        };
        socket.on('connect', pump);
        setTimeout(() => socket.destroy(), 60_000).unref();
      }),
    ),
  );
}

const sb = await startSandbox();
try {
  const bearer = await token(sb.url);
  const call = api(sb.url, bearer);
  const { repo, schemaId } = await contentModel(call);
  // The flood first, so the peak RSS is its own (the big item raises it afterwards).
  const before = rssOf(sb.pid);
  const t = performance.now();
  const statuses = await floodUnauthenticated(sb.url, CONNECTIONS, 10 * 1024 * 1024);
  const floodMs = performance.now() - t;
  await new Promise((r) => setTimeout(r, 2000));
  const after = rssOf(sb.pid);
  const counts = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  const words = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';
  const body = articleBody(schemaId, 1);
  body.body = words.repeat(Math.ceil((MB * 1e6) / words.length)).slice(0, MB * 1e6);
  const payload = JSON.stringify({ label: 'big', body });
  const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
  let id;
  const create = await stallDuring(sb.url, bearer, async () => {
    const res = await fetch(`${sb.url}/v2/content/content-repositories/${repo.id}/content-items`, { method: 'POST', headers, body: payload });
    const json = await res.json();
    id = json.id;
    return res.status;
  });
  const patch = await stallDuring(sb.url, bearer, async () => {
    const res = await fetch(`${sb.url}/v2/content/content-items/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ version: 1, body: { ...body, title: 'patched' } }) });
    await res.text();
    return res.status;
  });
  console.log(`| measure | value |\n|---|---:|`);
  console.log(`| create ${(payload.length / 1e6).toFixed(1)} MB item: status, took | ${create.status}, ${create.took.toFixed(0)} ms |`);
  console.log(`| create: other client's longest wait | ${create.maxWait.toFixed(0)} ms |`);
  console.log(`| PATCH of it: status, took | ${patch.status}, ${patch.took.toFixed(0)} ms |`);
  console.log(`| PATCH: other client's longest wait | ${patch.maxWait.toFixed(0)} ms |`);
  console.log(`| ${CONNECTIONS} unauthenticated 10 MiB POSTs: answers | ${JSON.stringify(counts)} in ${floodMs.toFixed(0)} ms |`);
  console.log(`| RSS before flood / peak (VmHWM) / 2 s after | ${before.rss.toFixed(0)} / ${after.peak.toFixed(0)} / ${after.rss.toFixed(0)} MB |`);
} finally {
  await sb.stop();
}
