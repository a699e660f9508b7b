import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// cms job bulk / bulk-status, cms admin and cms extension on the embedded sandbox.

const URI = 'https://schemas.example.com/bulk-cli/page.json';

/** A hub "bulk" with repositories "main" and "archive" (the page type assigned to both). */
async function seed(home: CliHome) {
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await home.run(['api', method, path, ...(body === undefined ? [] : ['--input', '-'])], { input: body === undefined ? '' : JSON.stringify(body) });
    if (res.exitCode !== 0) throw new Error(`${method} ${path}: ${res.stderr}`);
    return res.stdout ? JSON.parse(res.stdout) : undefined;
  };
  const hub = await api('POST', '/hubs', { name: 'bulk', label: 'Bulk' });
  const doc = { $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: URI, type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } } };
  await api('POST', `/hubs/${hub.id}/content-type-schemas`, { schemaId: URI, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
  const type = await api('POST', `/hubs/${hub.id}/content-types`, { contentTypeUri: URI, settings: { label: 'Page' } });
  const repos: any[] = [];
  for (const name of ['main', 'archive']) {
    const repo = await api('POST', `/hubs/${hub.id}/content-repositories`, { name, label: name });
    await api('POST', `/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
    repos.push(repo);
  }
  const newItem = (label: string) => api('POST', `/content-repositories/${repos[0].id}/content-items`, { label, body: { _meta: { schema: URI, name: label.toLowerCase() }, title: label } });
  return { api, hub, main: repos[0], archive: repos[1], newItem };
}

describe('cms job bulk, admin and extension', () => {
  const home = new CliHome();
  let s: Awaited<ReturnType<typeof seed>>;
  const file = (name: string, value: unknown) => {
    const path = join(home.dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };

  beforeAll(async () => {
    s = await seed(home);
  });
  afterAll(() => home.cleanup());

  describe('job bulk', () => {
    it('publish --item --wait fetches each version, waits and prints a SUCCESS result per item', async () => {
      const a = await s.newItem('A');
      const b = await s.newItem('B');
      await s.api('PATCH', `/content-items/${b.id}`, { version: 1, label: 'B2' });
      const results = await home.json(['job', 'bulk', 'publish', '--item', a.id, '--item', b.id, '--wait']);
      expect(results).toEqual([
        { contentItemId: a.id, status: 200, code: 'SUCCESS', message: null, publishingJobId: expect.any(String) },
        { contentItemId: b.id, status: 200, code: 'SUCCESS', message: null, publishingJobId: expect.any(String) },
      ]);
      expect((await s.api('GET', `/content-items/${b.id}`)).publishingStatus).toBe('LATEST');
    });

    it('--wait exits 3 when some items failed, still printing every result', async () => {
      const active = await s.newItem('Active');
      const archived = await s.newItem('Archived');
      await s.api('POST', `/content-items/${archived.id}/archive`, { version: 1 });
      const res = await home.run(['job', 'bulk', 'unarchive', '--item', active.id, '--item', archived.id, '--wait', '-o', 'json']);
      expect(res.exitCode, res.stderr).toBe(3);
      const results = JSON.parse(res.stdout);
      expect(results.map((r: any) => [r.contentItemId, r.status, r.code])).toEqual([
        [active.id, 409, 'ITEM_NOT_ARCHIVED'],
        [archived.id, 200, 'SUCCESS'],
      ]);
      expect(res.stderr).toContain('1 of 2 items failed');
    });

    it('--file without --wait prints the CREATED job; bulk-status shows it COMPLETED and --results each item', async () => {
      const item = await s.newItem('Assign');
      const selection = file('assign.json', [{ contentItemId: item.id, assignees: ['alice', 'bob'] }]);
      const job = await home.json(['job', 'bulk', 'assign-users', '--file', selection]);
      expect(job).toMatchObject({ jobType: 'ASSIGN_USERS', status: 'CREATED', results: [] });
      const status = await home.json(['job', 'bulk-status', job.id]);
      expect(status).toMatchObject({ id: job.id, status: 'COMPLETED', results: [{ contentItemId: item.id, status: 200, code: 'SUCCESS' }] });
      const table = await home.run(['job', 'bulk-status', job.id]);
      expect(table.stdout).toContain('1 succeeded, 0 failed');
      const results = await home.json(['job', 'bulk-status', job.id, '--results']);
      expect(results).toEqual([{ contentItemId: item.id, status: 200, code: 'SUCCESS', message: null, version: 2 }]);
      expect((await s.api('GET', `/content-items/${item.id}`)).assignees).toEqual(['alice', 'bob']);
    });

    it('--file takes items as cms prints them (id, not contentItemId): {id, version} entries, and `cms item list -o json` piped in whole', async () => {
      const a = await s.newItem('Piped A');
      const b = await s.newItem('Piped B');
      await s.api('POST', `/hubs/${s.hub.id}/workflow-states`, { label: 'Piped review', color: 'rgb(0,0,0)' }).catch(() => undefined);
      const short = file('selection.json', [{ id: a.id, version: 1 }]);
      const byId = await home.run(['job', 'bulk', 'update-workflow', '--file', short, '--state', 'Piped review', '--wait', '-o', 'json']);
      expect(byId.exitCode, byId.stdout + byId.stderr).toBe(0);
      expect(JSON.parse(byId.stdout).map((r: any) => [r.contentItemId, r.code])).toEqual([[a.id, 'SUCCESS']]);
      const listed = await home.run(['item', 'list', '--hub', 'bulk', '--repo', 'main', '--all', '-o', 'json']);
      const piped = JSON.parse(listed.stdout).filter((i: any) => i.label.startsWith('Piped'));
      expect(piped).toHaveLength(2);
      const res = await home.run(['job', 'bulk', 'publish', '--file', '-', '--wait', '-o', 'json'], { input: JSON.stringify(piped) });
      expect(res.exitCode, res.stdout + res.stderr).toBe(0);
      expect(JSON.parse(res.stdout).map((r: any) => r.contentItemId).sort()).toEqual([a.id, b.id].sort());
      // Entries in the service's own shape are sent as they are: a wrong one still fails, named.
      const wrong = await home.run(['job', 'bulk', 'publish', '--file', file('wrong.json', [{ contentItemId: b.id, version: 99 }]), '--wait', '-o', 'json']);
      expect(wrong.exitCode).toBe(3);
    });

    it('assign-users --assignee, update-workflow --state <label>|none and copy-items --repo from flags', async () => {
      const item = await s.newItem('Flags');
      await home.json(['job', 'bulk', 'assign-users', '--item', item.id, '--assignee', 'carol', '--wait']);
      expect((await s.api('GET', `/content-items/${item.id}`)).assignees).toEqual(['carol']);

      const state = await s.api('POST', `/hubs/${s.hub.id}/workflow-states`, { label: 'In review', color: 'rgb(0,0,0)' });
      await home.json(['job', 'bulk', 'update-workflow', '--item', item.id, '--state', 'In review', '--wait']);
      expect((await s.api('GET', `/content-items/${item.id}`)).workflow).toEqual({ state: state.id });
      await home.json(['job', 'bulk', 'update-workflow', '--item', item.id, '--state', 'none', '--wait']);
      expect((await s.api('GET', `/content-items/${item.id}`)).workflow).toBeUndefined();

      const [copied] = await home.json(['job', 'bulk', 'copy-items', '--item', item.id, '--repo', 'archive', '--wait']);
      const copy = await s.api('GET', `/content-items/${copied.newContentItemId}`);
      expect(copy).toMatchObject({ contentRepositoryId: s.archive.id, label: 'Flags', body: { title: 'Flags', _meta: { name: 'flags' } } });
    });

    it('usage errors exit 2: no selection, update-workflow without --state, a flag of another type, an unknown type', async () => {
      const item = await s.newItem('Usage');
      for (const args of [
        ['job', 'bulk', 'publish'],
        ['job', 'bulk', 'update-workflow', '--item', item.id],
        ['job', 'bulk', 'assign-users', '--item', item.id],
        ['job', 'bulk', 'copy-items', '--item', item.id],
        ['job', 'bulk', 'publish', '--item', item.id, '--state', 'none'],
        ['job', 'bulk', 'archive', '--item', item.id],
      ]) {
        const res = await home.run(args);
        expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      }
      expect((await home.run(['job', 'bulk', 'publish', '--file', join(home.dir, 'missing.json')])).stderr).toContain('no such file');
      const tooMany = await home.run(['job', 'bulk', 'publish', '--file', file('many.json', Array(1001).fill({ contentItemId: item.id, version: 1 }))]);
      expect(tooMany.exitCode).toBe(2);
      expect(tooMany.stderr).toContain('selection');
    });
  });

  describe('admin', () => {
    it('operations and access list the administrative links', async () => {
      const ops = await home.json(['admin', 'operations']);
      expect(ops.map((o: any) => o.operation)).toEqual(expect.arrayContaining(['access', 'hub-modules']));
      const access = await home.json(['admin', 'access', 'content-repositories', 'main', '--hub', 'bulk']);
      expect(access.map((o: any) => o.operation)).toEqual(expect.arrayContaining(['members', 'member', 'revoke-permissions', 'content-repository']));
    });

    it('members, member and revoke on a hub (by name) and a repository', async () => {
      const created = await home.run(['sandbox', 'client', 'create', '--id', 'editor', '--secret', 's3cret', '--acl', 'hub:bulk:READ,EDIT,SHARE', '--acl', `repo:${s.main.id}:READ,EDIT_CONTENT`]);
      expect(created.exitCode, created.stderr).toBe(0);
      const members = await home.json(['admin', 'members', 'hubs', 'bulk']);
      expect(members).toContainEqual({ sid: 'editor', permissions: ['READ', 'EDIT', 'SHARE'] });
      expect(members.find((m: any) => m.sid === 'sandbox-admin').permissions).toContain('MANAGE_ACCESS');

      const revoked = await home.run(['admin', 'revoke', 'hubs', 'bulk', 'editor', '--permission', 'EDIT,SHARE', '--yes']);
      expect(revoked.exitCode, revoked.stderr).toBe(0);
      expect(await home.json(['admin', 'member', 'hubs', 'bulk', 'editor'])).toMatchObject({ sid: 'editor', permissions: ['READ'] });

      expect((await home.run(['admin', 'revoke', 'content-repositories', 'main', 'editor', '--permission', 'EDIT_CONTENT', '--hub', 'bulk', '--yes'])).exitCode).toBe(0);
      expect(await home.json(['admin', 'member', 'content-repositories', s.main.id, 'editor'])).toMatchObject({ permissions: ['READ'] });

      expect((await home.run(['admin', 'revoke', 'hubs', 'bulk', 'editor', '--permission', 'DELETE', '--yes'])).exitCode).toBe(1);
      expect((await home.run(['admin', 'revoke', 'hubs', 'bulk', 'editor', '--permission', 'WRITE', '--yes'])).exitCode).toBe(2);
      expect((await home.run(['admin', 'revoke', 'hubs', 'bulk', 'editor', '--yes'])).exitCode).toBe(2);
      expect((await home.run(['admin', 'revoke', 'hubs', 'bulk', 'editor', '--permission', 'READ'])).exitCode).toBe(2);
    });

    it('modules and enable', async () => {
      expect(await home.json(['admin', 'modules'])).toContainEqual({ name: 'CONTENT_DELIVERY_2', enabled: false });
      const enabled = await home.run(['admin', 'enable', 'content-delivery-2']);
      expect(enabled.exitCode, enabled.stderr).toBe(0);
      expect(await home.json(['admin', 'modules', '--hub', 'bulk'])).toContainEqual({ name: 'CONTENT_DELIVERY_2', enabled: true });
      expect((await home.run(['admin', 'enable', 'search'])).exitCode).toBe(2);
    });
  });

  describe('extension', () => {
    it('create, list (full and --lite), get, get-by-name, update, delete', async () => {
      const ext = await home.json(['extension', 'create', '--name', 'rich-text', '--label', 'Rich text', '--url', 'https://ext.example.com/rte/', '--category', 'CONTENT_FIELD', '--height', '300', '--settings', '{"API":{}}']);
      expect(ext).toMatchObject({ name: 'rich-text', label: 'Rich text', height: 300, settings: '{"API":{}}', status: 'ACTIVE' });

      const full = await home.json(['extension', 'list']);
      expect(full).toEqual([expect.objectContaining({ id: ext.id, height: 300, settings: '{"API":{}}' })]);
      const lite = await home.json(['extension', 'list', '--lite']);
      expect(lite).toEqual([{ id: ext.id, name: 'rich-text', label: 'Rich text', category: 'CONTENT_FIELD', url: 'https://ext.example.com/rte/' }]);

      expect(await home.json(['extension', 'get-by-name', 'rich-text'])).toMatchObject({ id: ext.id });
      const updated = await home.json(['extension', 'update', ext.id, '--label', 'Rich text editor', '--set', 'snippets=[{"label":"Empty","body":"{}"}]']);
      expect(updated).toMatchObject({ label: 'Rich text editor', snippets: [{ label: 'Empty', body: '{}' }], height: 300 });
      expect((await home.json(['extension', 'get', ext.id])).label).toBe('Rich text editor');

      const duplicate = await home.run(['extension', 'create', '--name', 'rich-text', '--label', 'Again', '--url', 'https://x.example.com/', '--category', 'DASHBOARD']);
      expect(duplicate.exitCode).toBe(1);
      expect(duplicate.stderr).toContain('409');
      expect((await home.run(['extension', 'update', ext.id])).exitCode).toBe(2);

      expect((await home.run(['extension', 'delete', ext.id, '--yes'])).exitCode).toBe(0);
      expect((await home.run(['extension', 'get', ext.id])).exitCode).toBe(1);
      expect(await home.json(['extension', 'list'])).toEqual([]);
    });
  });
});
