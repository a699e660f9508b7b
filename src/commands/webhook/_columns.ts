import { col } from '../../output/result.js';

export const WEBHOOK_COLUMNS = [
  col('id'),
  col('label'),
  col('active'),
  col('events', (w: { events: string[] }) => w.events.join(',')),
  col('handlers', (w: { handlers: string[] }) => w.handlers.join(' ')),
];
