import type { Db } from '../core/db.js';
import { stmt } from '../core/statements.js';

// Wrapper templates of virtual staging. Two are built in: `default` (a clean page showing the
// item's fields) and `raw` (the delivery JSON in a <pre>). A hub registers its own by name; they
// wrap the default rendering. Placeholders: {{content}} and {{label}}.

export interface Template {
  name: string;
  html: string;
  builtIn: boolean;
  /** What {{content}} becomes: the fields as HTML, or the delivery graph as JSON text. */
  content: 'fields' | 'json';
  updatedDate: string | null;
}

const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.5}' +
  'dt{font-weight:600;margin-top:.5rem}dd{margin:0 0 0 1rem}ol{padding-left:1.25rem}' +
  'article article{border-left:3px solid #ddd;padding-left:1rem;margin:.5rem 0}pre{white-space:pre-wrap}';

const page = (body: string) =>
  `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{{label}}</title>\n<style>${PAGE_STYLE}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;

const BUILT_IN: Record<string, Template> = {
  default: { name: 'default', html: page('<main>{{content}}</main>'), builtIn: true, content: 'fields', updatedDate: null },
  raw: { name: 'raw', html: page('<pre>{{content}}</pre>'), builtIn: true, content: 'json', updatedDate: null },
};

export const isBuiltIn = (name: string): boolean => Object.hasOwn(BUILT_IN, name);

export const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_TEMPLATE_CHARS = 100_000;

const fromRow = (row: { name: string; html: string; updated_date: string }): Template => ({ name: row.name, html: row.html, builtIn: false, content: 'fields', updatedDate: row.updated_date });

/** A template by name: built in, or registered by the hub. */
export function findTemplate(db: Db, hubId: string, name: string): Template | undefined {
  if (isBuiltIn(name)) return BUILT_IN[name];
  const row = stmt(db, 'SELECT name, html, updated_date FROM staging_templates WHERE hub_id = ? AND name = ?').get(hubId, name) as Parameters<typeof fromRow>[0] | undefined;
  return row && fromRow(row);
}

/** The built-in templates, then the hub's by name. */
export function hubTemplates(db: Db, hubId: string): Template[] {
  const rows = stmt(db, 'SELECT name, html, updated_date FROM staging_templates WHERE hub_id = ? ORDER BY name').all(hubId) as Parameters<typeof fromRow>[0][];
  return [...Object.values(BUILT_IN), ...rows.map(fromRow)];
}

/** Creates or replaces a hub's template; true when it is new. */
export function saveTemplate(db: Db, hubId: string, name: string, html: string, nowIso: string): boolean {
  const existed = stmt(db, 'SELECT 1 FROM staging_templates WHERE hub_id = ? AND name = ?').get(hubId, name) !== undefined;
  stmt(db, 'INSERT OR REPLACE INTO staging_templates (hub_id, name, updated_date, html) VALUES (?, ?, ?, ?)').run(hubId, name, nowIso, html);
  return !existed;
}

export function deleteTemplate(db: Db, hubId: string, name: string): boolean {
  return stmt(db, 'DELETE FROM staging_templates WHERE hub_id = ? AND name = ?').run(hubId, name).changes > 0;
}

/** Fills {{content}} and {{label}} in one pass, so inserted text is never read as a placeholder. */
export function fill(template: Template, values: { content: string; label: string }): string {
  return template.html.replace(/\{\{\s*(content|label)\s*\}\}/g, (_, key: 'content' | 'label') => values[key]);
}
