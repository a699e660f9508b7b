// Output formats; separate from the renderer so building the command tree loads nothing else.
export type Format = 'table' | 'wide' | 'json' | 'ndjson' | 'yaml';
export const FORMATS: readonly Format[] = ['table', 'wide', 'json', 'ndjson', 'yaml'];
