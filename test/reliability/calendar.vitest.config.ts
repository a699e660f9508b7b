import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

// The calendar test's inner run (calendar.test.ts): the project's config, one worker, and its
// JSON report where the outer test reads it (never the outer run's own report file).
const root = join(import.meta.dirname, '..', '..');
export default defineConfig({
  ...base,
  root,
  test: {
    ...base.test,
    maxWorkers: 1,
    reporters: ['dot', ['json', { outputFile: process.env.CMS_CALENDAR_REPORT ?? join(root, '.vitest-calendar.json') }]],
  },
});
