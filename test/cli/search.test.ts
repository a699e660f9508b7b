import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, createHub, startServer } from '../helpers/server.js';
import { createContentRepo, createContentType, itemBody } from '../helpers/content.js';

// cms item find and cms item facet on the embedded sandbox. The corpus is written first over
// HTTP by a server on the same data directory, then the CLI reads it.

const HUB = 'searching';
const home = new CliHome();
let typeUri: string;

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    const admin = await new Api(srv.url).login();
    const hubId = (await createHub(admin, HUB)).id;
    const type = await createContentType(admin, hubId);
    typeUri = type.uri;
    const repo = await createContentRepo(admin, hubId, type.id, ['en-GB', 'fr-FR']);
    const add = async (label: string, title: string, locale?: string) => {
      const res = await admin.post(`/content-repositories/${repo.id}/content-items`, { label, body: itemBody(type.uri, { title }), ...(locale ? { locale } : {}) });
      if (res.status !== 201) throw new Error(`item create failed: ${res.status} ${res.text}`);
      return res.body;
    };
    await add('Apple pie', 'Grandma apple pie', 'en-GB');
    await add('Orange juice', 'Fresh orange', 'en-GB');
    await add('Pear tart', 'Pear with apple', 'fr-FR');
    const old = await add('Apple crumble', 'Crumble');
    const archived = await admin.post(`/content-items/${old.id}/archive`, { version: old.version });
    if (archived.status !== 200) throw new Error(`archive failed: ${archived.status} ${archived.text}`);
  } finally {
    await srv.stop();
  }
});

afterAll(() => home.cleanup());

const labels = (items: { label: string }[]) => items.map((i) => i.label);

describe('cms item find', () => {
  it('lists the matching items as JSON', async () => {
    const items = await home.json(['item', 'find', 'apple', '--hub', HUB]);
    expect(labels(items).sort()).toEqual(['Apple pie', 'Pear tart']);
    expect(items[0]).toHaveProperty('body');
  });

  it('prints a table of id, label, version, status, locale and schema when piped', async () => {
    const res = await home.run(['item', 'find', 'title:orange', '--hub', HUB]);
    expect(res.exitCode, res.stderr).toBe(0);
    const rows = res.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(1)).toEqual(['Orange juice', '1', 'ACTIVE', 'en-GB', typeUri]);
  });

  it('--projection basic, --sort and --limit', async () => {
    const basic = await home.json(['item', 'find', 'apple,orange', '--hub', HUB, '--projection', 'basic', '--sort', 'label,desc']);
    expect(labels(basic)).toEqual(['Pear tart', 'Orange juice', 'Apple pie']);
    expect(basic[0]).not.toHaveProperty('body');
    expect(basic[0].schema).toBe(typeUri);
    expect(await home.json(['item', 'find', 'apple,orange', '--hub', HUB, '--sort', 'label,asc', '--limit', '1'])).toHaveLength(1);
  });

  it('a query that starts with a hyphen follows --', async () => {
    const res = await home.run(['item', 'find', '--hub', HUB, '-o', 'json', '--', '-apple']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(labels(JSON.parse(res.stdout))).toEqual(['Orange juice']);
  });

  it('status:archived finds archived items', async () => {
    expect(labels(await home.json(['item', 'find', 'apple status:archived', '--hub', HUB]))).toEqual(['Apple crumble']);
  });

  it('a query the service refuses is a usage error (exit 2) with its message', async () => {
    const res = await home.run(['item', 'find', 'a:b:c', '--hub', HUB]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('quotes');
  });
});

describe('cms item facet', () => {
  it('prints facet, value and count rows', async () => {
    const res = await home.run(['item', 'facet', '--hub', HUB, '--field', 'locale', '--field', 'schema']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout).toBe(`locale\ten-GB\t2\nlocale\tfr-FR\t1\nschema\t${typeUri}\t3\n`);
  });

  it('-o json prints the whole answer: page, items and _facets', async () => {
    const answer = await home.json(['item', 'facet', '--hub', HUB, '--field', 'status:IN:ACTIVE,ARCHIVED', '--field', 'createdDate:DATE:-7:DAYS,NOW']);
    expect(answer._facets).toEqual({
      status: [
        { _id: 'ACTIVE', count: 3 },
        { _id: 'ARCHIVED', count: 1 },
      ],
      createdDate: [{ _id: '-7:DAYS,NOW', count: 4 }],
    });
    expect(answer.page.totalElements).toBe(4);
    expect(answer._embedded['content-items']).toEqual([]);
  });

  it('--entities returns the items; --search applies a text search first', async () => {
    const answer = await home.json(['item', 'facet', '--hub', HUB, '--field', 'locale', '--search', 'apple', '--entities', '--sort', 'label,asc']);
    expect(labels(answer._embedded['content-items'])).toEqual(['Apple pie', 'Pear tart']);
    expect(answer._embedded['content-items'][0]).not.toHaveProperty('body');
    expect(answer._facets.locale).toEqual([
      { _id: 'en-GB', count: 1 },
      { _id: 'fr-FR', count: 1 },
    ]);
  });

  it('filters and ranges: EXCLUDES, RANGE counts without filtering, DATE in whole days', async () => {
    const answer = await home.json(['item', 'facet', '--hub', HUB, '--field', 'locale:EXCLUDES:fr-FR', '--field', 'lastModifiedDate:RANGE:-1:DAYS,NOW', '--field', 'createdDate:DATE:-7:NOW']);
    expect(answer.page.totalElements).toBe(2);
    expect(answer._facets.lastModifiedDate).toEqual([{ _id: '-1:DAYS,NOW', count: 2 }]);
    expect(answer._facets.createdDate).toEqual([{ _id: '-7:NOW', count: 2 }]);
  });

  it('--body-file takes a whole request', async () => {
    const file = join(home.dir, 'facets.json');
    writeFileSync(file, JSON.stringify({ fields: [{ facetAs: 'ENUM', field: 'locale', name: 'languages', filter: { type: 'EQ', values: ['fr-FR'] } }], returnEntities: true }));
    const answer = await home.json(['item', 'facet', '--hub', HUB, '--body-file', file]);
    expect(answer._facets).toEqual({ languages: [{ _id: 'fr-FR', count: 1 }] });
    expect(labels(answer._embedded['content-items'])).toEqual(['Pear tart']);
  });

  it.each([
    [['item', 'facet', '--hub', HUB], 'at least one facet'],
    [['item', 'facet', '--hub', HUB, '--field', 'createdDate'], 'give ranges'],
    [['item', 'facet', '--hub', HUB, '--field', 'locale:LIKE:en'], 'use IN, EXCLUDES or EQ'],
    [['item', 'facet', '--hub', HUB, '--field', 'locale:IN'], 'needs values'],
    [['item', 'facet', '--hub', HUB, '--field', 'createdDate:DATE:last week'], 'range'],
  ])('bad facets are usage errors: %j', async (args, message) => {
    const res = await home.run(args);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain(message);
  });
});
