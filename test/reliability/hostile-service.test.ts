import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// A hostile CMS_API_URL (issue 24: 2, 5, 9, 10, 11). Two services on loopback: the one the
// profile names, answering what each test sets, and "another origin" that records every
// Authorization header it is sent. The CLI must keep its token for the API origin, refuse
// redirects, escape what the service says on stderr, end stalled requests and redact --debug.

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const HUB = '6b0000000000000000000001';
const INDEX = '6c0000000000000000000001';
const ITEM = '2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11';
const ESC = '\x1b]0;PWNED\x07\x1b[2J';
const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};

describe('a hostile service', () => {
  const home = new CliHome();
  let api: Server;
  let other: Server;
  let apiUrl: string;
  let otherUrl: string;
  /** Authorization headers the other origin received. */
  let stolen: string[] = [];
  let route: Handler = () => {};
  let env: Record<string, string>;

  const listen = async (server: Server) => {
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    api = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url === '/oauth/token') return json(res, 200, { access_token: 'tok-secret-123', token_type: 'bearer', expires_in: 3600 });
        route(req, res, body);
      });
    });
    other = createServer((req, res) => {
      req.resume();
      if (req.headers.authorization) stolen.push(req.headers.authorization);
      json(res, 200, { id: 'fake-job', state: 'COMPLETED', key: 'fake-key' });
    });
    apiUrl = await listen(api);
    otherUrl = await listen(other);
    env = { CMS_API_URL: apiUrl, CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' };
  });
  beforeEach(() => {
    stolen = [];
  });
  afterAll(() => {
    api.close();
    other.close();
    home.cleanup();
  });

  describe('tokens go to the API origin only (24.2)', () => {
    it('cms index key refuses a search-key link on another origin, and sends it nothing', async () => {
      route = (req, res) => {
        if (req.url === `/v2/content/hubs/${HUB}/search-indexes/${INDEX}`) return json(res, 200, { id: INDEX, _links: { 'hub-search-key': { href: `${otherUrl}/steal` } } });
        json(res, 404, { errors: [{ message: 'no' }] });
      };
      const res = await home.run(['index', 'key', INDEX, '--hub', HUB], { env });
      expect(stolen).toEqual([]);
      expect(res.exitCode).toBe(1);
      expect(res.stderr).toContain(`${otherUrl}/steal`);
      expect(res.stderr).toMatch(/outside the API origin/);
      expect(res.stdout).toBe('');
    });

    it('no spelling of another origin in a link gets the token (userinfo, case, port, scheme)', async () => {
      const api = new URL(apiUrl);
      const other = new URL(otherUrl);
      const hrefs = [
        `http://${api.host}@${other.host}/steal`,
        `HTTP://${other.host.toUpperCase()}/steal`,
        `http://localhost:${other.port}/steal`,
        `https://${api.host}/steal`,
        `http://${api.hostname}:${other.port}/steal`,
      ];
      for (const href of hrefs) {
        route = (req, res) => {
          if (req.url === `/v2/content/hubs/${HUB}/search-indexes/${INDEX}`) return json(res, 200, { id: INDEX, _links: { 'hub-search-key': { href } } });
          json(res, 404, { errors: [{ message: 'no' }] });
        };
        const res = await home.run(['index', 'key', INDEX, '--hub', HUB], { env });
        expect(res.exitCode, `${href}: ${res.stderr}`).toBe(1);
        expect(res.stderr, href).toMatch(/outside the API origin/);
      }
      expect(stolen).toEqual([]);
    }, 60_000);

    it('cms item publish refuses a Location on another origin (no fake job printed, exit 1)', async () => {
      route = (req, res) => {
        if (req.url === `/v2/content/content-items/${ITEM}/publish`) {
          res.writeHead(204, { location: `${otherUrl}/v2/content/publishing-jobs/j1` });
          return res.end();
        }
        json(res, 404, { errors: [{ message: 'no' }] });
      };
      const res = await home.run(['item', 'publish', ITEM], { env });
      expect(stolen).toEqual([]);
      expect(res.exitCode).toBe(1);
      expect(res.stdout).not.toContain('fake-job');
      expect(res.stderr).toMatch(/outside the API origin/);
    });

    it('cms api with an absolute URL on another host sends no token unless --send-token', async () => {
      const anonymous = await home.run(['api', 'GET', `${otherUrl}/anything`], { env });
      expect(anonymous.exitCode, anonymous.stderr).toBe(0);
      expect(stolen).toEqual([]);
      expect(anonymous.stderr).toMatch(/without the access token/);
      const explicit = await home.run(['api', 'GET', `${otherUrl}/anything`, '--send-token'], { env });
      expect(explicit.exitCode, explicit.stderr).toBe(0);
      expect(stolen).toEqual(['Bearer tok-secret-123']);
    });
  });

  it('a 3xx answer is an error naming the status and the Location, not followed (24.9)', async () => {
    route = (_req, res) => {
      res.writeHead(307, { location: `${otherUrl}/elsewhere` });
      res.end();
    };
    const list = await home.run(['hub', 'list'], { env });
    expect(list.exitCode).toBe(1);
    expect(list.stderr).toContain('307');
    expect(list.stderr).toContain(`${otherUrl}/elsewhere`);
    const create = await home.run(['hub', 'create', '--name', 'n', '--label', 'l'], { env });
    expect(create.exitCode).toBe(1);
    expect(create.stdout).not.toContain('undefined');
    expect(stolen).toEqual([]);
  });

  describe('stalls (24.10)', () => {
    it('a body dripped byte by byte ends at the request deadline, exit 1 naming it', async () => {
      let timer: NodeJS.Timeout | undefined;
      route = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        timer = setInterval(() => res.write(' '), 200);
        res.on('close', () => clearInterval(timer));
      };
      const started = Date.now();
      const res = await home.run(['hub', 'list'], { env: { ...env, CMS_REQUEST_TIMEOUT: '2' }, timeout: 30_000 });
      clearInterval(timer);
      expect(res.exitCode).toBe(1);
      expect(res.stderr).toMatch(/within 2 s/);
      expect(Date.now() - started).toBeLessThan(15_000);
    }, 40_000);

    it('a long Retry-After is announced on stderr before the wait', async () => {
      let calls = 0;
      route = (_req, res) => {
        if (calls++ === 0) return json(res, 429, { errors: [{ message: 'slow down' }] }, { 'retry-after': '3' });
        json(res, 200, { _embedded: { hubs: [] }, page: { number: 0, size: 20, totalPages: 1, totalElements: 0 } });
      };
      const res = await home.run(['hub', 'list'], { env });
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/waiting 3 s before retrying/);
    });
  });

  it('--debug redacts secret query parameters in request and answer lines (24.11)', async () => {
    route = (req, res) => json(res, 200, { _links: { self: { href: `${apiUrl}${req.url}` } }, echo: req.url });
    const res = await home.run(['api', 'GET', '/hubs', '-f', 'access_token=AAA111', '-f', 'client_secret=BBB222', '-f', 'password=CCC333', '-f', 'page=2', '--debug'], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).toContain('page=2');
    for (const secret of ['AAA111', 'BBB222', 'CCC333', 'tok-secret-123']) expect(res.stderr).not.toContain(secret);
    expect(res.stderr).toContain('access_token=[redacted]');
  });

  it('a hostile nbHits on stderr is escaped (24.5)', async () => {
    route = (req, res) => {
      if (req.url === `/__sandbox/search-indexes/${INDEX}/query`) return json(res, 200, { hits: [{ objectID: `o${ESC}`, label: `l${ESC}` }], nbHits: `1${ESC}`, page: 0, nbPages: 1 });
      json(res, 404, { errors: [{ message: 'no' }] });
    };
    const res = await home.run(['index', 'query', INDEX, 'x', '--hub', HUB], { env: { ...env, CMS_FORCE_TTY: '120' } });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).toContain('\\x1b]0;PWNED');
    expect(res.stderr + res.stdout).not.toMatch(controls);
  });

  it('completion offers ids and names only when they are plain words (24.13)', async () => {
    const hubs = [
      { id: '6b0000000000000000000001', name: 'plain', label: 'ok' },
      { id: '6b0000000000000000000002', name: '--profile=prod', label: 'an option' },
      { id: 'x\n--profile\nother', name: 'bad\nname', label: 'newlines' },
      { id: '-rf', name: '-o', label: 'both options' },
      { id: '6b0000000000000000000003', name: `t${ESC}`, label: `l${ESC}` },
    ];
    route = (_req, res) => json(res, 200, { _embedded: { hubs }, page: { number: 0, size: 200, totalPages: 1, totalElements: hubs.length } });
    const res = await home.run(['__complete', 'hubs'], { env });
    expect(res.exitCode).toBe(0);
    const words = res.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    expect(words).toEqual(['plain', '6b0000000000000000000002', '6b0000000000000000000003']);
    expect(res.stdout).not.toMatch(controls);
  });
});
