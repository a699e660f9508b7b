#!/usr/bin/env node
// Issue 11 findings 7 and 8, measured on `cms sandbox serve`:
// 1. a receiver that answers a --mb MB body (default 1536): the sandbox's peak RSS and what it logged;
// 2. a webhook whose handler is the sandbox's own create-item URL: items and deliveries after one
//    create and --seconds seconds (default 10), then how many more arrive in the 5 s after it is
//    deactivated.
//   node bench/webhook-safety.mjs [--mb 1536] [--seconds 10]
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { articleBody, api, contentModel, startSandbox, token } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const mb = opt('mb', 1536);
const seconds = opt('seconds', 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rss = (pid) => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { now: Number(/VmRSS:\s+(\d+)/.exec(s)[1]) / 1024, peak: Number(/VmHWM:\s+(\d+)/.exec(s)[1]) / 1024 };
};

const sandbox = await startSandbox();
try {
  const bearer = await token(sandbox.url);
  const call = api(sandbox.url, bearer);
  const { hub, repo, schemaId } = await contentModel(call);

  // 1. A huge answer.
  let sent = 0;
  const big = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const pump = () => {
      while (sent < mb * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise((r) => big.listen(0, '127.0.0.1', r));
  const before = rss(sandbox.pid);
  const hook = await call('POST', `/hubs/${hub.id}/webhooks`, { label: 'big', events: ['content-item.created'], handlers: [`http://127.0.0.1:${big.address().port}/`] });
  const started = Date.now();
  await call('POST', `/content-repositories/${repo.id}/content-items`, { label: 'one', body: articleBody(schemaId, 0) });
  let logged;
  while (!(logged = (await call('GET', `/hubs/${hub.id}/webhooks/${hook.id}/requests`))._embedded.requests[0]) && Date.now() - started < 120_000) await sleep(100);
  const after = rss(sandbox.pid);
  console.log(`huge answer (${mb} MB offered): receiver sent ${(sent / 1048576).toFixed(1)} MB before the connection closed; sandbox RSS ${before.now.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB; logged responseStatus ${logged?.responseStatus}, result ${logged?.result}, responseBody ${logged?.responseBody?.length ?? 0} chars, truncated ${logged?.responseBodyTruncated ?? false}, error ${logged?.error}; ${Date.now() - started} ms`);
  await call('PATCH', `/hubs/${hub.id}/webhooks/${hook.id}`, { active: false });
  big.close();

  // 2. A webhook feeding itself.
  const loopRepo = await call('POST', `/hubs/${hub.id}/content-repositories`, { name: 'loop', label: 'Loop' });
  const types = await call('GET', `/hubs/${hub.id}/content-types`);
  await call('POST', `/content-repositories/${loopRepo.id}/content-types`, { contentTypeId: types._embedded['content-types'][0].id });
  const count = async () => (await call('GET', `/content-repositories/${loopRepo.id}/content-items?size=1`)).page.totalElements;
  const loop = await call('POST', `/hubs/${hub.id}/webhooks`, {
    label: 'loop',
    events: ['content-item.created'],
    filters: [{ type: 'equal', arguments: [{ jsonPath: '$.payload.contentRepositoryId' }, { value: loopRepo.id }] }],
    handlers: [`${sandbox.url}/v2/content/content-repositories/${loopRepo.id}/content-items`],
    headers: [{ key: 'Authorization', value: `Bearer ${bearer}`, secret: true }],
    customPayload: { type: 'text/x-handlebars-template', value: JSON.stringify({ label: 'echo', body: { _meta: { schema: schemaId }, title: 'echo' } }) },
  });
  await call('POST', `/content-repositories/${loopRepo.id}/content-items`, { label: 'seed', body: articleBody(schemaId, 1) });
  await sleep(seconds * 1000);
  const items = await count();
  const deliveries = (await call('GET', `/hubs/${hub.id}/webhooks/${loop.id}/requests?limit=100`))._embedded.requests.length;
  await call('PATCH', `/hubs/${hub.id}/webhooks/${loop.id}`, { active: false });
  const atStop = await count();
  await sleep(5000);
  console.log(`self-feeding webhook: ${items} items and ${deliveries}${deliveries === 100 ? '+' : ''} deliveries logged ${seconds} s after one create; ${(await count()) - atStop} more items in the 5 s after deactivation; sandbox peak RSS ${rss(sandbox.pid).peak.toFixed(0)} MB`);
} finally {
  await sandbox.stop();
}
