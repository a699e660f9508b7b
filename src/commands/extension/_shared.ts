import { buildBody } from '../../cli/input.js';
import type { OptionSpec } from '../../cli/define.js';
import { col } from '../../output/result.js';

export const EXTENSION_COLUMNS = [col('id'), col('name'), col('label'), col('category'), col('url'), col('status')];
export const extensionArg = { name: 'extension', description: 'extension id', required: true };

export interface ExtensionFlags {
  name?: string;
  label?: string;
  url?: string;
  category?: string;
  description?: string;
  height?: number;
  parameters?: string;
  settings?: string;
  status?: string;
  bodyFile?: string;
  set?: string[];
}

export const EXTENSION_OPTIONS: OptionSpec[] = [
  { flags: '--name <name>', description: 'unique name in the hub (letters, digits, - and _)' },
  { flags: '--label <label>', description: 'label' },
  { flags: '--url <url>', description: 'http(s) URL the extension is served from' },
  { flags: '--category <category>', description: 'where it appears', choices: ['CONTENT_FIELD', 'DASHBOARD'] },
  { flags: '--description <text>', description: 'description' },
  { flags: '--height <pixels>', description: 'initial height', integer: true },
  { flags: '--parameters <text>', description: 'parameters handed to the extension (usually JSON)' },
  { flags: '--settings <json>', description: 'settings as a JSON string' },
  { flags: '--status <status>', description: 'status', choices: ['ACTIVE', 'ARCHIVED'] },
  { flags: '--body-file <file>', description: 'JSON extension body from a file (- for stdin); flags override its fields' },
  { flags: '--set <path=value>', description: 'set one field of the body, e.g. --set snippets[0].label=Empty (repeatable)', repeatable: true },
];

export function extensionBody(opts: ExtensionFlags): Promise<Record<string, unknown>> {
  const { name, label, url, category, description, height, parameters, settings, status } = opts;
  return buildBody(opts, { name, label, url, category, description, height, parameters, settings, status });
}
